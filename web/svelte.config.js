// Read by @sveltejs/vite-plugin-svelte: every component uses runes.
export default {
  compilerOptions: { runes: true },
};
