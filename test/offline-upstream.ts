// Loaded by `npm test` into every test process (node --test --import): the processes tests spawn
// (servers, workers, the CLI) inherit these, so nothing a test starts ever reaches the real YouTube
// (network traffic stays on loopback). Tests that talk to the fake platform set their own values.
process.env.YOUTUBE_SOURCE ??= 'data-api';
process.env.YOUTUBE_API_BASE_URL ??= 'http://127.0.0.1:9/youtube/v3';
process.env.YOUTUBE_INNERTUBE_BASE_URL ??= 'http://127.0.0.1:9';
