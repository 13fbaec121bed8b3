// Generated from the service's /openapi.json by openapi-typescript (npm run client:types at the repository root). Do not edit.
export type paths = {
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with email and password; returns a session JWT for the dashboard.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/auth/login' \
         *       -H 'Content-Type: application/json' \
         *       -d '{"email":"ada@example.com","password":"correct horse battery staple"}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/auth/login', {
         *       method: 'POST',
         *       headers: { 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "email": "ada@example.com",
         *         "password": "correct horse battery staple"
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/auth/login",
         *         json={
         *             "email": "ada@example.com",
         *             "password": "correct horse battery staple",
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Renew a dashboard session: a new session JWT valid for JWT_TTL_SECONDS from now. The dashboard renews while its user is active; API keys may not use it.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/auth/session' \
         *       -H "Authorization: Bearer $SESSION_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/auth/session', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.SESSION_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/auth/session",
         *         headers={"Authorization": f"Bearer {os.environ['SESSION_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["renewSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's API keys (never their secrets).
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/keys' \
         *       -H "Authorization: Bearer $SESSION_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/keys', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.SESSION_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/keys",
         *         headers={"Authorization": f"Bearer {os.environ['SESSION_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key. The secret is in this response only; store it now.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/keys' \
         *       -H "Authorization: Bearer $SESSION_TOKEN" \
         *       -H 'Content-Type: application/json' \
         *       -d '{"name":"production backend","scopes":["shorts:write","shorts:read"]}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/keys', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.SESSION_TOKEN}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "name": "production backend",
         *         "scopes": [
         *           "shorts:write",
         *           "shorts:read"
         *         ]
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/keys",
         *         headers={"Authorization": f"Bearer {os.environ['SESSION_TOKEN']}"},
         *         json={
         *             "name": "production backend",
         *             "scopes": ["shorts:write", "shorts:read"],
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/keys/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Requests and credits charged per key over the last days (30 by default), busiest first.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/keys/usage' \
         *       -H "Authorization: Bearer $SESSION_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/keys/usage', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.SESSION_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/keys/usage",
         *         headers={"Authorization": f"Bearer {os.environ['SESSION_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getApiKeyUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key. Effective on every instance within a second.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X DELETE 'http://localhost:3000/keys/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93' \
         *       -H "Authorization: Bearer $SESSION_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/keys/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93', {
         *       method: 'DELETE',
         *       headers: { Authorization: `Bearer ${process.env.SESSION_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.delete(
         *         "http://localhost:3000/keys/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93",
         *         headers={"Authorization": f"Bearer {os.environ['SESSION_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's account: credits, rate limits and usage.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/accounts' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/accounts', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/accounts",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Requests, items and credits per UTC day, oldest first, every day present.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/accounts/usage' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/accounts/usage', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/accounts/usage",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getAccountUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook signing secrets that currently sign (the newest first). Dashboard session only.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/accounts/webhook-secret' \
         *       -H "Authorization: Bearer $SESSION_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/accounts/webhook-secret', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.SESSION_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/accounts/webhook-secret",
         *         headers={"Authorization": f"Bearer {os.environ['SESSION_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/webhook-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a new signing secret; the one it replaces keeps signing until previousExpiresAt, older ones stop at once (at most two sign). Rate limited per account.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/accounts/webhook-secret/rotate' \
         *       -H "Authorization: Bearer $SESSION_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/accounts/webhook-secret/rotate', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.SESSION_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/accounts/webhook-secret/rotate",
         *         headers={"Authorization": f"Bearer {os.environ['SESSION_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/webhook-destinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Each URL the account sends webhooks to, with its health: success rate over the last 24 hours, consecutive failures, last error, last success, and whether it is paused.
         * @description A destination whose every attempt has failed for WEBHOOK_DISABLE_AFTER_DAYS is paused: new attempts to it are recorded but not sent, and a webhook.destination.paused account event is sent to eventsWebhookUrl (and listed by GET /accounts/events). It is resumed by POST /accounts/webhook-destinations/{destinationId}/resume, or by a successful test event (POST /webhooks/test) to its URL.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/accounts/webhook-destinations' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/accounts/webhook-destinations', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/accounts/webhook-destinations",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["listWebhookDestinations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/webhook-destinations/{destinationId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a destination: its new attempts are sent again, and its run of failures starts afresh.
         * @description Attempts held while it was paused are not sent by this: redeliver them (POST /api/youtube/shorts/{requestId}/redeliver). Resuming a destination that is not paused only restarts its failure count.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/accounts/webhook-destinations/destinationId/resume' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/accounts/webhook-destinations/destinationId/resume', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/accounts/webhook-destinations/destinationId/resume",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["resumeWebhookDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Credit ledger (grants, charges, deductions) with the request and channel each charge paid for, newest first, in pages (cursor).
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/accounts/ledger' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/accounts/ledger', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/accounts/ledger",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["listLedgerEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/ledger.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The whole ledger as CSV (RFC 4180, UTF-8, newest first). Text cells a spreadsheet would read as a formula start with '.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/accounts/ledger.csv' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/accounts/ledger.csv', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.text(); // errors are JSON: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/accounts/ledger.csv",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.text  # errors are JSON: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["exportLedgerCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/balance-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The balance at the end of each UTC day, oldest first, every day present, and each change in the period (from the ledger).
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/accounts/balance-history' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/accounts/balance-history', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/accounts/balance-history",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getBalanceHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The low-balance threshold, the account's events webhook URL and its default webhook payload form.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/accounts/alerts' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/accounts/alerts', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/accounts/alerts",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getCreditAlerts"];
        /**
         * Set the low-balance threshold, the events webhook URL (null turns either off) and/or the default form of shorts.completed webhooks (webhookPayload: full or thin); an omitted field is unchanged. Dashboard session only. A new default applies to requests accepted from then on (within CREDENTIAL_CACHE_MS).
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X PUT 'http://localhost:3000/accounts/alerts' \
         *       -H "Authorization: Bearer $SESSION_TOKEN" \
         *       -H 'Content-Type: application/json' \
         *       -d '{"lowBalanceThreshold":50,"eventsWebhookUrl":"https://example.com/hooks/account"}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/accounts/alerts', {
         *       method: 'PUT',
         *       headers: { Authorization: `Bearer ${process.env.SESSION_TOKEN}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "lowBalanceThreshold": 50,
         *         "eventsWebhookUrl": "https://example.com/hooks/account"
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.put(
         *         "http://localhost:3000/accounts/alerts",
         *         headers={"Authorization": f"Bearer {os.environ['SESSION_TOKEN']}"},
         *         json={
         *             "lowBalanceThreshold": 50,
         *             "eventsWebhookUrl": "https://example.com/hooks/account",
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        put: operations["setCreditAlerts"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Account events (credits.low, webhook.destination.paused), newest first, with the body each is delivered with.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/accounts/events' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/accounts/events', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/accounts/events",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["listCreditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/youtube/shorts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's shorts requests, newest first, filtered and paged.
         * @description Each entry names the API key that made it and, for webhook requests, the state of the delivery (delivered, retrying with the next attempt's time, failed after the last attempt, gone). Filters combine; pages follow nextCursor. Calls refused before they were recorded are counted at GET /api/youtube/shorts/rejections.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/api/youtube/shorts' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/shorts', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/api/youtube/shorts",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["listRequests"];
        put?: never;
        /**
         * List a channel's Shorts with the channel's details.
         * @description Without webhookUrl the result is in the response (200). With webhookUrl the request is accepted (202) and the result is POSTed to the URL later, signed per Standard Webhooks. Price: max(1, ceil(shorts / 50) × 1, ceil(upstream units / 4)) credits; nothing is charged on failure. (GET /api/pricing). Credits are reserved before the platform is read and the work is capped at what they pay for: when the first playlist page shows the channel costs more than the available credits, the answer is 402 quoting the price (use limit to ask for fewer). Failed lookups come out of a daily allowance of 50 unpaid upstream units per account (then 429 QUOTA_ALLOWANCE_EXHAUSTED). When every platform key is spent for the day, earlier results are served with stale:true; otherwise 503 with Retry-After. At most 5000 shorts per request (newest first); when more exist the body says truncated:true. Fields the platform does not send are omitted, never null. sort=oldest|popular and the duration filters read the whole window (up to MAX_SHORTS_PER_REQUEST) before limit applies: the price follows the shorts read, not the shorts returned (a filter never lowers it). Every short carries contentDetails.duration (ISO 8601) and durationSeconds when the platform sends a duration. store: true keeps a synchronous result for paged reading (GET /api/youtube/shorts/{requestId}/items); webhook results are always kept.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/api/youtube/shorts' \
         *       -H "Authorization: Bearer $API_KEY" \
         *       -H 'Content-Type: application/json' \
         *       -d '{"channelUrl":"https://www.youtube.com/@demo","limit":10}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/shorts', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "channelUrl": "https://www.youtube.com/@demo",
         *         "limit": 10
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/api/youtube/shorts",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         json={
         *             "channelUrl": "https://www.youtube.com/@demo",
         *             "limit": 10,
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["listChannelShorts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/youtube/shorts/{requestId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Status and result of one request, with its webhook delivery attempts.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/api/youtube/shorts/req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/shorts/req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/api/youtube/shorts/req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/youtube/shorts/{requestId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver a settled webhook request again now (same webhook-id). 409 DELIVERY_IN_PROGRESS while an attempt is queued or running.
         * @description Free of charge and outside the account's metered rate limits, but limited to at most 10 per minute and 100 per hour per account (429 RATE_LIMITED with Retry-After beyond).
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/api/youtube/shorts/req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0/redeliver' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/shorts/req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0/redeliver', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/api/youtube/shorts/req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0/redeliver",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["redeliverRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/youtube/shorts/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The batches of the account, newest first: progress counts and charge of each, in pages.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/api/youtube/shorts/batch' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/shorts/batch', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/api/youtube/shorts/batch",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["listBatches"];
        put?: never;
        /**
         * Submit up to 50 shorts requests at once, each answered by webhook.
         * @description Each item becomes an ordinary webhook request (its own requestId, result, charge, credit reservation and shorts.completed / shorts.failed webhook to webhookUrl). When every item has settled, one batch.completed webhook (see webhooks) summarises the batch; GET /api/youtube/shorts/batch/{batchId} shows progress. Acceptance is all or nothing: every item reserves at least 1 credit when accepted; when the available credits cannot reserve every item the whole batch is refused with 402 and nothing is recorded or charged. A batch counts as one call against the rate limits.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/api/youtube/shorts/batch' \
         *       -H "Authorization: Bearer $API_KEY" \
         *       -H 'Content-Type: application/json' \
         *       -d '{"items":[{"channelUrl":"https://www.youtube.com/@demo","sort":"popular","limit":10},{"channelUrl":"https://www.youtube.com/@sparse","oldestDate":1735689600000}],"webhookUrl":"https://example.com/hooks/shorts"}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/shorts/batch', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "items": [
         *           {
         *             "channelUrl": "https://www.youtube.com/@demo",
         *             "sort": "popular",
         *             "limit": 10
         *           },
         *           {
         *             "channelUrl": "https://www.youtube.com/@sparse",
         *             "oldestDate": 1735689600000
         *           }
         *         ],
         *         "webhookUrl": "https://example.com/hooks/shorts"
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/api/youtube/shorts/batch",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         json={
         *             "items": [{
         *                 "channelUrl": "https://www.youtube.com/@demo",
         *                 "sort": "popular",
         *                 "limit": 10,
         *             }, {
         *                 "channelUrl": "https://www.youtube.com/@sparse",
         *                 "oldestDate": 1735689600000,
         *             }],
         *             "webhookUrl": "https://example.com/hooks/shorts",
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["submitBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/youtube/shorts/batch/{batchId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Progress of a batch: counts, each item's status and charge, and the summary webhook's delivery attempts.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/api/youtube/shorts/batch/bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/shorts/batch/bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/api/youtube/shorts/batch/bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getBatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/youtube/shorts/batch/{batchId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a finished batch's batch.completed summary again now (same webhook-id). 409 while the batch runs or a delivery is queued or running.
         * @description Free of charge and outside the account's metered rate limits, but limited to at most 10 per minute and 100 per hour per account, with request redeliveries (429 RATE_LIMITED with Retry-After beyond).
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/api/youtube/shorts/batch/bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0/redeliver' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/shorts/batch/bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0/redeliver', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/api/youtube/shorts/batch/bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0/redeliver",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["redeliverBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/youtube/shorts/{requestId}/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A finished request's stored result, page by page.
         * @description Webhook requests, and synchronous requests sent with store: true, keep their whole result for RESULT_RETENTION_DAYS (7) days after completion; read it here ≤ 500 shorts at a time, following nextCursor until it is null. Reading pages costs no credits. After the retention period: 410 RESULT_EXPIRED.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/api/youtube/shorts/req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0/items' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/shorts/req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0/items', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/api/youtube/shorts/req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0/items",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getItemsPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/youtube/shorts/rejections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Calls refused before a request was recorded (400, 402, 429 …), counted per UTC day.
         * @description A refused call (invalid body, not enough credits at acceptance, rate limited) has no request record; it is counted here by day, status, error code and key, so the requests listed plus the calls counted here account for every call. Counts are written every few seconds; this instance's latest are included at once.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/api/youtube/shorts/rejections' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/shorts/rejections', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/api/youtube/shorts/rejections",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["listRejections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every webhook delivery attempt of the account, newest first: headers sent, status, answer excerpt, duration, next retry.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/webhooks/deliveries' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/webhooks/deliveries', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/webhooks/deliveries",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed webhook.test event to a URL now (one attempt) and show what happened.
         * @description Signed with the account's webhook secrets and sent through the same guarded path as real deliveries (the address rules of webhookUrl apply). One attempt, no retries, nothing recorded, no credits charged; one that succeeds resumes the account's paused destination at that URL (GET /accounts/webhook-destinations). It does not count against the account's metered rate limits but is limited to at most 10 per minute. The answer is 200 whatever the receiver did: see outcome.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/webhooks/test' \
         *       -H "Authorization: Bearer $API_KEY" \
         *       -H 'Content-Type: application/json' \
         *       -d '{"url":"https://example.com/hooks/shorts"}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/webhooks/test', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "url": "https://example.com/hooks/shorts"
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/webhooks/test",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         json={
         *             "url": "https://example.com/hooks/shorts",
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["sendTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: the process is up.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/healthz'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/healthz', {
         *       method: 'GET',
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/healthz",
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: database, queue and Redis (when configured) reachable.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/readyz'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/readyz', {
         *       method: 'GET',
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/readyz",
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics. When the operator sets METRICS_TOKEN, send it as "Authorization: Bearer <METRICS_TOKEN>".
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/metrics' \
         *       -H "Authorization: Bearer $METRICS_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/metrics', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.METRICS_TOKEN}` },
         *     });
         *     const result = await response.text(); // errors are JSON: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/metrics",
         *         headers={"Authorization": f"Bearer {os.environ['METRICS_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.text  # errors are JSON: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who the operator API sees: an operator session or the operator token.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/operator/me' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/me', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/operator/me",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["operatorWhoAmI"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users, newest first; search matches part of the email or the exact id.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/operator/users' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/users', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/operator/users",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["operatorListUsers"];
        put?: never;
        /**
         * Create a user (customer or operator) with an optional starting balance.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/operator/users' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN" \
         *       -H 'Content-Type: application/json' \
         *       -d '{"email":"ada@example.com","password":"correct horse battery staple"}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/users', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "email": "ada@example.com",
         *         "password": "correct horse battery staple"
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/operator/users",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         json={
         *             "email": "ada@example.com",
         *             "password": "correct horse battery staple",
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["operatorCreateUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One user with totals and usage per UTC day.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["operatorGetUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/users/{id}/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user's credit ledger, newest first.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/ledger' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/ledger', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/ledger",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["operatorListUserLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/users/{id}/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user's shorts requests, newest first.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/requests' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/requests', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/requests",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["operatorListUserRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/users/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user's webhook delivery attempts, newest first.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/deliveries' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/deliveries', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/deliveries",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["operatorListUserDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/users/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a user: every credential of theirs is refused (403) within a second.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/disable' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN" \
         *       -H 'Content-Type: application/json' \
         *       -d '{}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/disable', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({}),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/disable",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         json={},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["operatorDisableUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/users/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a disabled user again.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/enable' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN" \
         *       -H 'Content-Type: application/json' \
         *       -d '{}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/enable', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({}),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/enable",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         json={},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["operatorEnableUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/users/{id}/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a user an operator, or a customer again.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/role' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN" \
         *       -H 'Content-Type: application/json' \
         *       -d '{"role":"customer"}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/role', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "role": "customer"
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/role",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         json={
         *             "role": "customer",
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["operatorSetUserRole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/users/{id}/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant or deduct credits with a reason (a ledger entry). A deduction never takes the balance below 0 (409, nothing changed).
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/credits' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN" \
         *       -H 'Content-Type: application/json' \
         *       -d '{"direction":"grant","amount":1,"reason":"Requested by the customer."}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/credits', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "direction": "grant",
         *         "amount": 1,
         *         "reason": "Requested by the customer."
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/credits",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         json={
         *             "direction": "grant",
         *             "amount": 1,
         *             "reason": "Requested by the customer.",
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["operatorChangeUserCredits"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/users/{id}/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a user's rate limits; a window given as null goes back to the default, one left out stays as it is.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X PUT 'http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/limits' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN" \
         *       -H 'Content-Type: application/json' \
         *       -d '{"perMinute":120,"perDay":null}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/limits', {
         *       method: 'PUT',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "perMinute": 120,
         *         "perDay": null
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.put(
         *         "http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/limits",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         json={
         *             "perMinute": 120,
         *             "perDay": None,
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        put: operations["operatorSetUserLimits"];
        post?: never;
        /**
         * Reset a user's rate limits to the defaults.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X DELETE 'http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/limits' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/limits', {
         *       method: 'DELETE',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.delete(
         *         "http://localhost:3000/operator/users/7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93/limits",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        delete: operations["operatorResetUserLimits"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit log of operator actions, newest first (optionally about one user).
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/operator/audit' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/audit', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/operator/audit",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["operatorListAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Invitations, newest first (never their tokens).
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/operator/invitations' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/invitations', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/operator/invitations",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["operatorListInvitations"];
        put?: never;
        /**
         * Invite an email (SIGNUP=invite or open): returns a one-time link that sets the password. Send it to the person; it is shown once.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/operator/invitations' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN" \
         *       -H 'Content-Type: application/json' \
         *       -d '{"email":"ada@example.com"}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/invitations', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "email": "ada@example.com"
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/operator/invitations",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         json={
         *             "email": "ada@example.com",
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["operatorCreateInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/doctor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check the data's invariants (balances, charges, stuck requests, queue, lock); ok=false on a breach.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/operator/doctor' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/doctor', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/operator/doctor",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["operatorRunDoctor"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the operator should know about the configuration (the start-up notes): the YouTube source and keys, rejected keys, no users yet. The dashboard shows the warnings as a banner.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/operator/setup' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/setup', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/operator/setup",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["operatorGetSetup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/quota": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Upstream quota per YouTube Data API key today (the pool shared by every instance), the source in use, and each source's recent health as this instance met it.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/operator/quota' \
         *       -H "Authorization: Bearer $OPERATOR_TOKEN"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/operator/quota', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.OPERATOR_TOKEN}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/operator/quota",
         *         headers={"Authorization": f"Bearer {os.environ['OPERATOR_TOKEN']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["operatorGetQuota"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How new users get an account here: off (an operator creates them), invite, or open.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/signup'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/signup', {
         *       method: 'GET',
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/signup",
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getSignupMode"];
        put?: never;
        /**
         * Create an account (SIGNUP=open); then sign in with POST /auth/login.
         * @description The configured starting credits go to the first account of a mailbox (another case, a +tag, a trailing dot or look-alike characters are the same mailbox). The answer is the same whether the email is new or already has an account (which is left unchanged): sign in with the password to know. At most 10 sign-ups an hour and 20 a day per client address.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/signup' \
         *       -H 'Content-Type: application/json' \
         *       -d '{"email":"ada@example.com","password":"correct horse battery staple"}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/signup', {
         *       method: 'POST',
         *       headers: { 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "email": "ada@example.com",
         *         "password": "correct horse battery staple"
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/signup",
         *         json={
         *             "email": "ada@example.com",
         *             "password": "correct horse battery staple",
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation: set the password, get the account and a session. The link works once.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/invitations/accept' \
         *       -H 'Content-Type: application/json' \
         *       -d '{"token":"inv_4Yw8Qm2Zr7","password":"correct horse battery staple"}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/invitations/accept', {
         *       method: 'POST',
         *       headers: { 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "token": "inv_4Yw8Qm2Zr7",
         *         "password": "correct horse battery staple"
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/invitations/accept",
         *         json={
         *             "token": "inv_4Yw8Qm2Zr7",
         *             "password": "correct horse battery staple",
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create the first operator with the one-time setup link the service prints at start while it has no users; returns a session.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/setup' \
         *       -H 'Content-Type: application/json' \
         *       -d '{"token":"cssetup_…","email":"you@example.com","password":"a long passphrase"}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/setup', {
         *       method: 'POST',
         *       headers: { 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "token": "cssetup_…",
         *         "email": "you@example.com",
         *         "password": "a long passphrase"
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/setup",
         *         json={
         *             "token": "cssetup_…",
         *             "email": "you@example.com",
         *             "password": "a long passphrase",
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["completeSetup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pricing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The price of a request and the webhook timings, as configured here. No credential needed.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/api/pricing'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/pricing', {
         *       method: 'GET',
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/api/pricing",
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getPricing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/youtube/watches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's watches, oldest first.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/api/youtube/watches' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/watches', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/api/youtube/watches",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["listWatches"];
        put?: never;
        /**
         * Watch a channel: its new Shorts are POSTed to webhookUrl as shorts.created events.
         * @description Resolves the channel and records its current shorts as the baseline (they are never reported), then checks it every intervalSeconds (at least 900) and, with PUBLIC_BASE_URL set, as soon as YouTube's WebSub hub announces an upload. A check reads only the newest page of the channel's Shorts: about 1 upstream unit when nothing is new, 2 when something is. Price: units are paid in advance, 1 credit per 4 units; reported shorts cost 1 credit(s) per started block of 50. A watch whose account cannot pay is paused (watch.paused) and resumed when credits return (watch.resumed). At most 20 watches per account. See docs/watches.md.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/api/youtube/watches' \
         *       -H "Authorization: Bearer $API_KEY" \
         *       -H 'Content-Type: application/json' \
         *       -d '{"channelUrl":"https://www.youtube.com/@demo","webhookUrl":"https://example.com/hooks/shorts","intervalSeconds":900}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/watches', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({
         *         "channelUrl": "https://www.youtube.com/@demo",
         *         "webhookUrl": "https://example.com/hooks/shorts",
         *         "intervalSeconds": 900
         *       }),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/api/youtube/watches",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         json={
         *             "channelUrl": "https://www.youtube.com/@demo",
         *             "webhookUrl": "https://example.com/hooks/shorts",
         *             "intervalSeconds": 900,
         *         },
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["createWatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/youtube/watches/{watchId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One watch, with its latest checks and events (and their delivery state).
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/api/youtube/watches/wch_m1x2y3z4a1b2c3d4e5f6a7b8' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/watches/wch_m1x2y3z4a1b2c3d4e5f6a7b8', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/api/youtube/watches/wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getWatch"];
        put?: never;
        post?: never;
        /**
         * Stop watching; answers the watch as it was. Events already recorded are still delivered.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X DELETE 'http://localhost:3000/api/youtube/watches/wch_m1x2y3z4a1b2c3d4e5f6a7b8' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/watches/wch_m1x2y3z4a1b2c3d4e5f6a7b8', {
         *       method: 'DELETE',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.delete(
         *         "http://localhost:3000/api/youtube/watches/wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        delete: operations["deleteWatch"];
        options?: never;
        head?: never;
        /**
         * Change a watch's webhookUrl or interval, pause it or resume it.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X PATCH 'http://localhost:3000/api/youtube/watches/wch_m1x2y3z4a1b2c3d4e5f6a7b8' \
         *       -H "Authorization: Bearer $API_KEY" \
         *       -H 'Content-Type: application/json' \
         *       -d '{}'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/watches/wch_m1x2y3z4a1b2c3d4e5f6a7b8', {
         *       method: 'PATCH',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}`, 'Content-Type': 'application/json' },
         *       body: JSON.stringify({}),
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.patch(
         *         "http://localhost:3000/api/youtube/watches/wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         json={},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        patch: operations["updateWatch"];
        trace?: never;
    };
    "/api/youtube/watches/{watchId}/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a watch now (priced like any check); the schedule is unchanged.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/api/youtube/watches/wch_m1x2y3z4a1b2c3d4e5f6a7b8/check' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/watches/wch_m1x2y3z4a1b2c3d4e5f6a7b8/check', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/api/youtube/watches/wch_m1x2y3z4a1b2c3d4e5f6a7b8/check",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["checkWatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/youtube/videos/{videoId}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A Short's counts over time and its growth (stored snapshots; no credits).
         * @description Every fresh read of a Short from the platform (shorts requests, batches, watch checks, tracked channels) stores a snapshot of its counts, shared by all accounts. This reads them: points oldest first in from..to (default the last 30 days), and growth over the last 24 hours, 7 days and 30 days: the latest point minus the earliest stored point inside the window (`since`), present when the window holds two points or more. Counts in the read rate limit; costs no credits.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/api/youtube/videos/videoId/stats' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/videos/videoId/stats', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/api/youtube/videos/videoId/stats",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getVideoStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/youtube/channels/{channelId}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A channel's Shorts ranked by views gained in a window, and its own counts over time.
         * @description The channel's Shorts with stored history (read by any account's requests, watch checks or tracking), ordered by views gained in the window (24h, 7d or 30d), each with its last counts and growth; and the channel's subscriber and view counts over the window. Empty lists for a channel nothing was read of. Counts in the read rate limit; costs no credits.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/api/youtube/channels/channelId/stats' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/api/youtube/channels/channelId/stats', {
         *       method: 'GET',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/api/youtube/channels/channelId/stats",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getChannelStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The MCP server for AI agents (Streamable HTTP, JSON-RPC 2.0; see the Agents guide).
         * @description One JSON-RPC message (or a batch) per POST, answered as JSON (no event stream, no session). Send `Accept: application/json, text/event-stream` as MCP clients do. Tools: `list_channel_shorts`, `get_request`, `list_requests`, `get_short_stats`, `get_channel_movers`, `get_account`, `create_watch`, `list_watches`, `delete_watch`. A tool call is the REST call it names: the same scopes, limits, credits and error codes.
         *
         *     **curl**
         *
         *     ```bash
         *     curl -sS -X POST 'http://localhost:3000/mcp' \
         *       -H "Authorization: Bearer $API_KEY"
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/mcp', {
         *       method: 'POST',
         *       headers: { Authorization: `Bearer ${process.env.API_KEY}` },
         *     });
         *     const result = await response.json(); // errors: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.post(
         *         "http://localhost:3000/mcp",
         *         headers={"Authorization": f"Bearer {os.environ['API_KEY']}"},
         *         timeout=120,
         *     )
         *     result = response.json()  # errors: {"error", "message", "requestId"}
         *     ```
         */
        post: operations["mcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/llms.txt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API summarised for language models (llmstxt.org), as Markdown.
         * @description **curl**
         *
         *     ```bash
         *     curl -sS -X GET 'http://localhost:3000/llms.txt'
         *     ```
         *
         *     **JavaScript**
         *
         *     ```js
         *     const response = await fetch('http://localhost:3000/llms.txt', {
         *       method: 'GET',
         *     });
         *     const result = await response.text(); // errors are JSON: { error, message, requestId }
         *     ```
         *
         *     **Python**
         *
         *     ```python
         *     import os, requests
         *
         *     response = requests.get(
         *         "http://localhost:3000/llms.txt",
         *         timeout=120,
         *     )
         *     result = response.text  # errors are JSON: {"error", "message", "requestId"}
         *     ```
         */
        get: operations["getLlmsTxt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = {
    "shorts.result": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * shorts.completed / shorts.failed: the result of a shorts request that carried webhookUrl.
         * @description Signed per Standard Webhooks: headers webhook-id (stable across retries), webhook-timestamp (Unix seconds) and webhook-signature (space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret). Answer 2xx to acknowledge; 410 stops retries; anything else (redirects included) is retried on the configured schedule, honouring Retry-After. See the Webhooks guide above. webhook-id is msg_<requestId>.
         */
        post: operations["shortsResultEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "shorts.result.thin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * shorts.completed (thin): a completed result without its shorts, to page from resultUrl.
         * @description Signed per Standard Webhooks: headers webhook-id (stable across retries), webhook-timestamp (Unix seconds) and webhook-signature (space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret). Answer 2xx to acknowledge; 410 stops retries; anything else (redirects included) is retried on the configured schedule, honouring Retry-After. See the Webhooks guide above. webhook-id is msg_<requestId>. Sent instead of the full shorts.completed when the request (or the account's default, PUT /accounts/alerts) asked for webhookPayload thin (data.reason requested), or when the full body would be over WEBHOOK_MAX_BODY_BYTES (data.reason too_large). data.thin is true in both. Read the shorts with GET data.resultUrl (the account's API key, shorts:read; cursor paging, free) within RESULT_RETENTION_DAYS.
         */
        post: operations["shortsResultThinEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "batch.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent once when every item of a batch (POST /api/youtube/shorts/batch) has settled.
         * @description Signed per Standard Webhooks: headers webhook-id (stable across retries), webhook-timestamp (Unix seconds) and webhook-signature (space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret). Answer 2xx to acknowledge; 410 stops retries; anything else (redirects included) is retried on the configured schedule, honouring Retry-After. See the Webhooks guide above. webhook-id is msg_<batchId>. Each item also sends its own shorts.completed / shorts.failed webhook; deliveries run in parallel, so this summary (queued once the last item has settled) may arrive before the last of them. data: batchId, status "completed", counts {total, processing (0), completed, failed}, creditsCharged (sum over items), and per item requestId, channelUrl, status, itemCount, creditsCharged and error (the code of a failed item).
         */
        post: operations["batchCompletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "shorts.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent when a check of a watch (POST /api/youtube/watches) finds new shorts: one event per check, the shorts oldest first.
         * @description Signed per Standard Webhooks: headers webhook-id (stable across retries), webhook-timestamp (Unix seconds) and webhook-signature (space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret). Answer 2xx to acknowledge; 410 stops retries; anything else (redirects included) is retried on the configured schedule, honouring Retry-After. See the Webhooks guide above. webhook-id is msg_<event id> (the id in the watch's events, GET /api/youtube/watches/{watchId}).
         */
        post: operations["shortsCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "shorts.growth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent when a check of a tracked watch (trackStats with an alert) finds one of the channel's Shorts gained at least alert.viewsGained views within alert.withinHours (from stored snapshots, never extrapolated); at most once per Short per alert window.
         * @description Signed per Standard Webhooks: headers webhook-id (stable across retries), webhook-timestamp (Unix seconds) and webhook-signature (space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret). Answer 2xx to acknowledge; 410 stops retries; anything else (redirects included) is retried on the configured schedule, honouring Retry-After. See the Webhooks guide above. webhook-id is msg_<event id> (the id in the watch's events, GET /api/youtube/watches/{watchId}).
         */
        post: operations["shortsGrowthEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "watch.paused": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent when a watch is paused because its account cannot pay for a check (pausedReason credits); it is resumed when the account can.
         * @description Signed per Standard Webhooks: headers webhook-id (stable across retries), webhook-timestamp (Unix seconds) and webhook-signature (space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret). Answer 2xx to acknowledge; 410 stops retries; anything else (redirects included) is retried on the configured schedule, honouring Retry-After. See the Webhooks guide above. webhook-id is msg_<event id> (the id in the watch's events, GET /api/youtube/watches/{watchId}).
         */
        post: operations["watchPausedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "watch.resumed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent when a watch paused for credits is resumed (checked at once).
         * @description Signed per Standard Webhooks: headers webhook-id (stable across retries), webhook-timestamp (Unix seconds) and webhook-signature (space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret). Answer 2xx to acknowledge; 410 stops retries; anything else (redirects included) is retried on the configured schedule, honouring Retry-After. See the Webhooks guide above. webhook-id is msg_<event id> (the id in the watch's events, GET /api/youtube/watches/{watchId}).
         */
        post: operations["watchResumedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "credits.low": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent once when the balance falls below the account's low-balance threshold (PUT /accounts/alerts), to its eventsWebhookUrl; again only after a grant lifts the balance back to the threshold.
         * @description Signed per Standard Webhooks: headers webhook-id (stable across retries), webhook-timestamp (Unix seconds) and webhook-signature (space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret). Answer 2xx to acknowledge; 410 stops retries; anything else (redirects included) is retried on the configured schedule, honouring Retry-After. See the Webhooks guide above. webhook-id is msg_<event id>. Queued by the workers' sweep within WATCH_SWEEP_SECONDS of the charge that crossed the threshold; listed with GET /accounts/events.
         */
        post: operations["creditsLowEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.destination.paused": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent once when a webhook destination is paused: every attempt to it failed for WEBHOOK_DISABLE_AFTER_DAYS; to the account's eventsWebhookUrl.
         * @description Signed per Standard Webhooks: headers webhook-id (stable across retries), webhook-timestamp (Unix seconds) and webhook-signature (space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret). Answer 2xx to acknowledge; 410 stops retries; anything else (redirects included) is retried on the configured schedule, honouring Retry-After. See the Webhooks guide above. webhook-id is msg_<event id>. Queued by the workers' sweep; listed with GET /accounts/events. The destination's new attempts are recorded unsent until it is resumed (POST /accounts/webhook-destinations/{destinationId}/resume, or a test event to it that succeeds).
         */
        post: operations["webhookDestinationPausedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent once, on request, by POST /webhooks/test (and the dashboard's "Send test event") to the URL given: to check a receiver's signature verification.
         * @description Signed like every event (headers webhook-id, webhook-timestamp, webhook-signature; see shorts.result). webhook-id is msg_test_<random>, new for each test; one attempt, no retries; the answer is shown to the caller, whatever it is.
         */
        post: operations["webhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type components = {
    schemas: {
        /**
         * @description The caller's account: credits, upstream quota, rate limits and usage.
         * @example {
         *       "id": "7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93",
         *       "email": "ada@example.com",
         *       "role": "customer",
         *       "createdAt": "2026-05-01T09:00:00.000Z",
         *       "credits": {
         *         "balance": 97,
         *         "reserved": 0,
         *         "available": 97
         *       },
         *       "upstreamQuota": {
         *         "quotaDay": "2026-06-01",
         *         "resetsAt": "2026-06-02T07:00:00.000Z",
         *         "unitsToday": 6,
         *         "allowance": {
         *           "units": 50,
         *           "used": 0,
         *           "remaining": 50
         *         }
         *       },
         *       "rateLimits": {
         *         "perMinute": 60,
         *         "perHour": 1000,
         *         "perDay": 10000
         *       },
         *       "readsPerMinute": 600,
         *       "usage": {
         *         "minute": 1,
         *         "hour": 3,
         *         "day": 3,
         *         "totalRequests": 12,
         *         "totalCreditsCharged": 31
         *       },
         *       "alerts": {
         *         "lowBalanceThreshold": 50,
         *         "eventsWebhookUrl": null,
         *         "low": false,
         *         "webhookPayload": "full"
         *       }
         *     }
         */
        Account: {
            id: string;
            email: string;
            role: components["schemas"]["Role"];
            /** Format: date-time */
            createdAt: string;
            credits: {
                balance: number;
                /** @description Held by requests in progress (a webhook request holds its minimum price from acceptance until it settles). */
                reserved: number;
                /** @description balance - reserved: what new requests may spend. */
                available: number;
            };
            upstreamQuota: {
                /** @description The video platform's quota day (America/Los_Angeles date). */
                quotaDay: string;
                /** Format: date-time */
                resetsAt: string;
                /** @description Upstream units spent on this account's behalf today, paid or not. */
                unitsToday: number;
                allowance: {
                    /** @description Unpaid units allowed per quota day (failed lookups, refusals after a probe). */
                    units: number;
                    used: number;
                    remaining: number;
                };
            };
            rateLimits: components["schemas"]["RateLimits"];
            /** @description Calls per minute outside the metered routes (reads, keys, webhook tools): READ_RATE_LIMIT_PER_MINUTE, at least ten times perMinute; 0: unlimited. */
            readsPerMinute: number;
            usage: {
                /** @description Requests counted in the current minute window. */
                minute: number;
                hour: number;
                day: number;
                totalRequests: number;
                totalCreditsCharged: number;
            };
            alerts: components["schemas"]["CreditAlerts"];
        };
        /**
         * @description An API key, without its secret.
         * @example {
         *       "id": "b3e1f6a2-4c7d-4e8f-a1b2-c3d4e5f6a7b8",
         *       "name": "production backend",
         *       "prefix": "csk_lEaNrfoT",
         *       "createdAt": "2026-05-01T09:05:00.000Z",
         *       "lastUsedAt": "2026-06-01T12:00:00.000Z",
         *       "revokedAt": null,
         *       "expiresAt": null,
         *       "scopes": [
         *         "shorts:write",
         *         "shorts:read",
         *         "account:read"
         *       ]
         *     }
         */
        ApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description The first characters of the key, to recognise it. */
            prefix: string;
            /** Format: date-time */
            createdAt: string;
            lastUsedAt: string | null;
            revokedAt: string | null;
            expiresAt: string | null;
            /** @description What the key may do (see the scopes in POST /keys). */
            scopes: string[];
        };
        /**
         * @description One operator action.
         * @example {
         *       "id": 7,
         *       "actor": "ops@example.com",
         *       "actorAccountId": "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f",
         *       "action": "credits.grant",
         *       "targetAccountId": "7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93",
         *       "target": "ada@example.com",
         *       "reason": "welcome",
         *       "before": {
         *         "credits": 0
         *       },
         *       "after": {
         *         "credits": 100
         *       },
         *       "createdAt": "2026-06-01T12:00:00.000Z"
         *     }
         */
        AuditEntry: {
            id: number;
            actor: string;
            actorAccountId: string | null;
            action: string;
            targetAccountId: string | null;
            target: string | null;
            reason: string | null;
            before: unknown;
            after: unknown;
            /** Format: date-time */
            createdAt: string;
        };
        /**
         * @example {
         *       "date": "2026-06-01",
         *       "balance": 97,
         *       "added": 100,
         *       "spent": 3
         *     }
         */
        BalanceDay: {
            /** @description UTC date, YYYY-MM-DD. */
            date: string;
            /** @description The balance at the end of the day. */
            balance: number;
            /** @description Credits granted that day. */
            added: number;
            /** @description Credits charged or deducted that day. */
            spent: number;
        };
        /**
         * @description The balance at the end of each day, oldest first, and each change within the period.
         * @example {
         *       "days": [
         *         {
         *           "date": "2026-05-31",
         *           "balance": 0,
         *           "added": 0,
         *           "spent": 0
         *         },
         *         {
         *           "date": "2026-06-01",
         *           "balance": 97,
         *           "added": 100,
         *           "spent": 3
         *         }
         *       ],
         *       "steps": [
         *         {
         *           "at": "2026-06-01T09:00:00.000Z",
         *           "balance": 100
         *         },
         *         {
         *           "at": "2026-06-01T12:00:01.200Z",
         *           "balance": 97
         *         }
         *       ],
         *       "openingBalance": 0
         *     }
         */
        BalanceHistory: {
            days: components["schemas"]["BalanceDay"][];
            /** @description Every change of the balance in the period, oldest first (the latest 1,000 when there were more), so a chart can show the steps within a day: the balance before the first is the opening one. */
            steps: components["schemas"]["BalanceStep"][];
            /** @description The balance when the period began. */
            openingBalance: number;
        };
        /**
         * @example {
         *       "at": "2026-06-01T12:00:01.200Z",
         *       "balance": 97
         *     }
         */
        BalanceStep: {
            /**
             * Format: date-time
             * @description When the balance changed.
             */
            at: string;
            /** @description The balance after the change. */
            balance: number;
        };
        /**
         * @description The batch was accepted; every item is an ordinary webhook request.
         * @example {
         *       "success": true,
         *       "batchId": "bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "status": "processing",
         *       "items": [
         *         {
         *           "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *           "channelUrl": "https://www.youtube.com/@demo"
         *         }
         *       ],
         *       "message": "Accepted 1 request."
         *     }
         */
        BatchAccepted: {
            /** @constant */
            success: true;
            batchId: string;
            /** @constant */
            status: "processing";
            /** @description One requestId per item, in the order sent. */
            items: {
                requestId: string;
                channelUrl: string;
            }[];
            message: string;
        };
        BatchItem: {
            /**
             * @description Channel address, in any form POST /api/youtube/shorts accepts.
             * @example https://www.youtube.com/@demo
             */
            channelUrl: string;
            /** @description Unix time in milliseconds; only shorts published at or after it. */
            oldestDate?: number;
            /** @description At most this many shorts (after sort and duration filters). */
            limit?: number;
            /**
             * @description The most this request may cost. The read is capped at the shorts these credits pay for (newest first; sort and duration filters rank those only); when the channel has more, the answer has truncated:true and a message saying so. Never more is charged; 402 INSUFFICIENT_CREDITS when even the minimum price exceeds it.
             * @example 10
             */
            maxCredits?: number;
            /** @description "growth": every short carries growth over the last 24 hours, 7 days and 30 days, computed from stored snapshots with this answer's counts as the latest point (absent where history is too short). No extra price. */
            include?: "growth"[];
            /**
             * @description newest (default) | oldest | popular (exact viewCount, ties newest first). oldest and popular read the whole window (up to MAX_SHORTS_PER_REQUEST) and are priced by what was read; limit applies after sorting.
             * @enum {unknown}
             */
            sort?: "newest" | "oldest" | "popular";
            /** @description Only shorts at least this long (seconds, inclusive). Shorts without a known duration are left out. Filters apply after details are read: they never lower the price of the work read. */
            minDurationSeconds?: number;
            /** @description Only shorts at most this long (seconds, inclusive); not below minDurationSeconds. */
            maxDurationSeconds?: number;
        };
        BatchItemStatus: {
            requestId: string;
            channelUrl: string;
            status: components["schemas"]["RequestStatus"];
            itemCount: number | null;
            creditsCharged: number | null;
            error: string | null;
        };
        /**
         * @description The account's batches, newest first, one page.
         * @example {
         *       "success": true,
         *       "batches": [
         *         {
         *           "batchId": "bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *           "status": "completed",
         *           "webhookUrl": "https://example.com/hooks/shorts",
         *           "createdAt": "2026-06-01T12:00:00.000Z",
         *           "completedAt": "2026-06-01T12:00:05.000Z",
         *           "counts": {
         *             "total": 2,
         *             "processing": 0,
         *             "completed": 1,
         *             "failed": 1
         *           },
         *           "creditsCharged": 3
         *         }
         *       ],
         *       "nextCursor": null
         *     }
         */
        BatchList: {
            /** @constant */
            success: true;
            /** @description Newest first. */
            batches: components["schemas"]["BatchListEntry"][];
            nextCursor: string | null;
        };
        /**
         * @description A batch as listed: its progress counts and charge (GET /api/youtube/shorts/batch/{batchId} has each item's).
         * @example {
         *       "batchId": "bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "status": "completed",
         *       "webhookUrl": "https://example.com/hooks/shorts",
         *       "createdAt": "2026-06-01T12:00:00.000Z",
         *       "completedAt": "2026-06-01T12:00:05.000Z",
         *       "counts": {
         *         "total": 2,
         *         "processing": 0,
         *         "completed": 1,
         *         "failed": 1
         *       },
         *       "creditsCharged": 3
         *     }
         */
        BatchListEntry: {
            batchId: string;
            /** @description completed once every item has settled (completed or failed). */
            status: "processing" | "completed";
            webhookUrl: string;
            /** Format: date-time */
            createdAt: string;
            completedAt: string | null;
            counts: {
                total: number;
                processing: number;
                completed: number;
                failed: number;
            };
            /** @description Sum of the items' charges so far. */
            creditsCharged: number;
        };
        /**
         * @description A redelivery of the batch.completed summary was queued.
         * @example {
         *       "batchId": "bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "status": "queued",
         *       "attempt": 9
         *     }
         */
        BatchRedeliveryQueued: {
            batchId: string;
            /** @constant */
            status: "queued";
            /** @description The number the queued attempt will have. */
            attempt: number;
        };
        /**
         * @example {
         *       "items": [
         *         {
         *           "channelUrl": "https://www.youtube.com/@demo",
         *           "sort": "popular",
         *           "limit": 10
         *         },
         *         {
         *           "channelUrl": "https://www.youtube.com/@sparse",
         *           "oldestDate": 1735689600000
         *         }
         *       ],
         *       "webhookUrl": "https://example.com/hooks/shorts"
         *     }
         */
        BatchRequest: {
            /** @description 1 to 50 requests; each becomes an ordinary webhook request with its own requestId, result, charge and webhook. */
            items: components["schemas"]["BatchItem"][];
            /**
             * Format: uri
             * @description Receives every item's shorts.completed / shorts.failed webhook and, once all have settled, one batch.completed summary.
             */
            webhookUrl: string;
            /** @description Webhook requests: how shorts.completed carries the result. full (the default, unless the account's default is thin: PUT /accounts/alerts): the whole result, as the synchronous answer; thin: requestId, itemCount, creditsCharged, truncated and resultUrl (GET /api/youtube/shorts/{requestId}/items, paged). A full body over WEBHOOK_MAX_BODY_BYTES is sent thin (reason too_large). */
            webhookPayload?: "full" | "thin";
        };
        /**
         * @description Progress of a batch.
         * @example {
         *       "success": true,
         *       "batchId": "bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "status": "completed",
         *       "webhookUrl": "https://example.com/hooks/shorts",
         *       "createdAt": "2026-06-01T12:00:00.000Z",
         *       "completedAt": "2026-06-01T12:00:05.000Z",
         *       "counts": {
         *         "total": 2,
         *         "processing": 0,
         *         "completed": 1,
         *         "failed": 1
         *       },
         *       "creditsCharged": 3,
         *       "items": [
         *         {
         *           "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *           "channelUrl": "https://www.youtube.com/@demo",
         *           "status": "completed",
         *           "itemCount": 120,
         *           "creditsCharged": 3,
         *           "error": null
         *         },
         *         {
         *           "requestId": "req_m1x2y3z4f6e5d4c3b2a1f0e9d8c7",
         *           "channelUrl": "https://www.youtube.com/@nobody",
         *           "status": "failed",
         *           "itemCount": null,
         *           "creditsCharged": 0,
         *           "error": "CHANNEL_NOT_FOUND"
         *         }
         *       ],
         *       "deliveries": [
         *         {
         *           "id": 42,
         *           "attempt": 1,
         *           "webhookId": "msg_bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *           "startedAt": "2026-06-01T12:00:05.100Z",
         *           "statusCode": 200,
         *           "latencyMs": 61,
         *           "outcome": "delivered",
         *           "error": null,
         *           "requestHeaders": null,
         *           "responseExcerpt": null,
         *           "nextAttemptAt": null
         *         }
         *       ]
         *     }
         */
        BatchStatus: {
            /** @constant */
            success: true;
            batchId: string;
            /** @description completed once every item has settled (completed or failed). */
            status: "processing" | "completed";
            webhookUrl: string;
            /** Format: date-time */
            createdAt: string;
            completedAt: string | null;
            counts: {
                total: number;
                processing: number;
                completed: number;
                failed: number;
            };
            /** @description Sum of the items' charges so far. */
            creditsCharged: number;
            items: components["schemas"]["BatchItemStatus"][];
            /** @description Delivery attempts of the batch.completed webhook. */
            deliveries: components["schemas"]["DeliveryAttempt"][];
        };
        /**
         * @example {
         *       "batchId": "bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "status": "completed",
         *       "webhookUrl": "https://example.com/hooks/shorts",
         *       "createdAt": "2026-06-01T12:00:00.000Z",
         *       "completedAt": "2026-06-01T12:00:05.000Z",
         *       "counts": {
         *         "total": 2,
         *         "processing": 0,
         *         "completed": 1,
         *         "failed": 1
         *       },
         *       "creditsCharged": 3,
         *       "items": [
         *         {
         *           "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *           "channelUrl": "https://www.youtube.com/@demo",
         *           "status": "completed",
         *           "itemCount": 120,
         *           "creditsCharged": 3,
         *           "error": null
         *         },
         *         {
         *           "requestId": "req_m1x2y3z4f6e5d4c3b2a1f0e9d8c7",
         *           "channelUrl": "https://www.youtube.com/@nobody",
         *           "status": "failed",
         *           "itemCount": null,
         *           "creditsCharged": 0,
         *           "error": "CHANNEL_NOT_FOUND"
         *         }
         *       ]
         *     }
         */
        BatchSummary: {
            batchId: string;
            /** @description completed once every item has settled (completed or failed). */
            status: "processing" | "completed";
            webhookUrl: string;
            /** Format: date-time */
            createdAt: string;
            completedAt: string | null;
            counts: {
                total: number;
                processing: number;
                completed: number;
                failed: number;
            };
            /** @description Sum of the items' charges so far. */
            creditsCharged: number;
            items: components["schemas"]["BatchItemStatus"][];
        };
        /**
         * @description Body of the batch.completed webhook.
         * @example {
         *       "type": "batch.completed",
         *       "timestamp": "2026-06-01T12:00:05.000Z",
         *       "data": {
         *         "batchId": "bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *         "status": "completed",
         *         "webhookUrl": "https://example.com/hooks/shorts",
         *         "createdAt": "2026-06-01T12:00:00.000Z",
         *         "completedAt": "2026-06-01T12:00:05.000Z",
         *         "counts": {
         *           "total": 2,
         *           "processing": 0,
         *           "completed": 1,
         *           "failed": 1
         *         },
         *         "creditsCharged": 3,
         *         "items": [
         *           {
         *             "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *             "channelUrl": "https://www.youtube.com/@demo",
         *             "status": "completed",
         *             "itemCount": 120,
         *             "creditsCharged": 3,
         *             "error": null
         *           },
         *           {
         *             "requestId": "req_m1x2y3z4f6e5d4c3b2a1f0e9d8c7",
         *             "channelUrl": "https://www.youtube.com/@nobody",
         *             "status": "failed",
         *             "itemCount": null,
         *             "creditsCharged": 0,
         *             "error": "CHANNEL_NOT_FOUND"
         *           }
         *         ]
         *       }
         *     }
         */
        BatchWebhookPayload: {
            /** @constant */
            type: "batch.completed";
            /**
             * Format: date-time
             * @description When the last item settled.
             */
            timestamp: string;
            data: components["schemas"]["BatchSummary"];
        };
        /**
         * @description The channel, as the spec's Channel table.
         * @example {
         *       "kind": "youtube#channel",
         *       "etag": "Xj4pQbVnD1mR8rT2",
         *       "id": "UCdemo0000000000000000aa",
         *       "snippet": {
         *         "title": "Demo Channel",
         *         "description": "Shorts for the demo.",
         *         "customUrl": "@demo",
         *         "publishedAt": "2019-03-04T10:00:00Z",
         *         "thumbnails": {
         *           "default": {
         *             "url": "https://i.ytimg.com/vi/dQw4w9WgXcQ/default.jpg",
         *             "width": 120,
         *             "height": 90
         *           }
         *         },
         *         "country": "US"
         *       },
         *       "statistics": {
         *         "viewCount": "1843000",
         *         "subscriberCount": "12400",
         *         "hiddenSubscriberCount": false,
         *         "videoCount": "140"
         *       },
         *       "brandingSettings": {
         *         "channel": {
         *           "title": "Demo Channel",
         *           "description": "Shorts for the demo."
         *         },
         *         "image": {
         *           "bannerExternalUrl": "https://yt3.googleusercontent.com/demo-banner"
         *         }
         *       }
         *     }
         */
        Channel: {
            kind: string;
            /** @description The platform's ETag; absent in keyless (InnerTube) mode. */
            etag?: string;
            id: string;
            snippet: {
                title?: string;
                description?: string;
                customUrl?: string;
                publishedAt?: string;
                thumbnails?: {
                    default?: {
                        url: string;
                        width?: number;
                        height?: number;
                    };
                    medium?: {
                        url: string;
                        width?: number;
                        height?: number;
                    };
                    high?: {
                        url: string;
                        width?: number;
                        height?: number;
                    };
                    standard?: {
                        url: string;
                        width?: number;
                        height?: number;
                    };
                    maxres?: {
                        url: string;
                        width?: number;
                        height?: number;
                    };
                };
                defaultLanguage?: string;
                localized?: {
                    title?: string;
                    description?: string;
                };
                country?: string;
            };
            statistics: {
                viewCount?: string;
                subscriberCount?: string;
                hiddenSubscriberCount?: boolean;
                videoCount?: string;
            };
            brandingSettings: {
                channel: {
                    title?: string;
                    description?: string;
                    keywords?: string;
                    trackingAnalyticsAccountId?: string;
                    moderateComments?: boolean;
                    unsubscribedTrailer?: string;
                    defaultLanguage?: string;
                    country?: string;
                };
                image: {
                    bannerExternalUrl?: string;
                };
            };
        };
        /**
         * @description A channel's Shorts with stored history ranked by growth, and its own counts over time.
         * @example {
         *       "success": true,
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "channelId": "UCuAXFkgsw1L7xaCfnd5JJOw",
         *       "window": "24h",
         *       "movers": [
         *         {
         *           "videoId": "dQw4w9WgXcQ",
         *           "publishedAt": "2026-05-30T18:00:00.000Z",
         *           "last": {
         *             "at": "2026-06-01T12:00:00.000Z",
         *             "viewCount": 48211,
         *             "likeCount": 3120,
         *             "commentCount": 87,
         *             "exact": true
         *           },
         *           "growth": {
         *             "last24h": {
         *               "viewsGained": 5120,
         *               "since": "2026-05-31T12:10:00.000Z"
         *             }
         *           }
         *         }
         *       ],
         *       "channel": {
         *         "points": [
         *           {
         *             "at": "2026-06-01T12:00:00.000Z",
         *             "subscriberCount": 12400,
         *             "viewCount": 1843000,
         *             "videoCount": 140,
         *             "exact": true
         *           }
         *         ]
         *       }
         *     }
         */
        ChannelStats: {
            /** @constant */
            success: true;
            requestId: string;
            channelId: string;
            /** @description The window movers are ranked by. */
            window: "24h" | "7d" | "30d";
            /** @description Ordered by views gained in the window, most first; Shorts without growth in the window follow, by their last view count. */
            movers: components["schemas"]["Mover"][];
            /** @description The channel's own counts over the window. */
            channel: {
                /** @description Oldest first, inside the window. */
                points: components["schemas"]["ChannelStatsPoint"][];
            };
        };
        /**
         * @description One snapshot of a channel's own counts.
         * @example {
         *       "at": "2026-06-01T12:00:00.000Z",
         *       "subscriberCount": 12400,
         *       "viewCount": 1843000,
         *       "videoCount": 140,
         *       "exact": true
         *     }
         */
        ChannelStatsPoint: {
            /** Format: date-time */
            at: string;
            subscriberCount?: number;
            viewCount?: number;
            videoCount?: number;
            /** @description False for counts parsed from display text (keyless reads). */
            exact: boolean;
        };
        /**
         * @example {
         *       "channelUrl": "https://www.youtube.com/@demo",
         *       "webhookUrl": "https://example.com/hooks/shorts",
         *       "intervalSeconds": 900
         *     }
         */
        CreateWatch: {
            /**
             * @description Channel address, in any form POST /api/youtube/shorts accepts.
             * @example https://www.youtube.com/@demo
             */
            channelUrl: string;
            /**
             * Format: uri
             * @description Receives shorts.created (new shorts), watch.paused and watch.resumed events, signed per Standard Webhooks.
             */
            webhookUrl: string;
            /** @description Seconds between scheduled checks; at least WATCH_MIN_INTERVAL_SECONDS (default 900, also the default interval), at most 30 days. */
            intervalSeconds?: number;
            /** @description Statistics tracking: growth history for the recent Shorts. */
            trackStats?: {
                /** @description Each check also refreshes the counts of the channel's Shorts published within this many days (videos.list, 1 unit per 50 Shorts, paid like the rest of the check; GET /api/pricing). */
                days: number;
            };
            /** @description Sends a signed shorts.growth event when a tracked Short gains at least viewsGained views within withinHours (from stored snapshots; once per Short per withinHours). Needs trackStats. */
            alert?: {
                /** @description Views a Short must gain… */
                viewsGained: number;
                /** @description …within this many hours. */
                withinHours: number;
            };
        };
        /**
         * @description A new invitation with its one-time link (shown once).
         * @example {
         *       "id": "e5f6a7b8-c9d0-4e1f-a2b3-c4d5e6f7a8b9",
         *       "email": "grace@example.com",
         *       "credits": 100,
         *       "role": "customer",
         *       "createdBy": "ops@example.com",
         *       "createdAt": "2026-06-01T12:00:00.000Z",
         *       "expiresAt": "2026-06-04T12:00:00.000Z",
         *       "acceptedAt": null,
         *       "token": "inv_4Yw8Qm2Zr7",
         *       "link": "http://localhost:3000/dashboard/#/invite/inv_4Yw8Qm2Zr7"
         *     }
         */
        CreatedInvitation: {
            id: string;
            email: string;
            credits: number;
            role: components["schemas"]["Role"];
            createdBy: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string;
            acceptedAt: string | null;
            token: string;
            /** @description Send it to the person; it works once. */
            link: string;
        };
        /**
         * @description A new API key with its secret (shown once).
         * @example {
         *       "id": "b3e1f6a2-4c7d-4e8f-a1b2-c3d4e5f6a7b8",
         *       "name": "production backend",
         *       "prefix": "csk_lEaNrfoT",
         *       "createdAt": "2026-05-01T09:05:00.000Z",
         *       "lastUsedAt": null,
         *       "revokedAt": null,
         *       "expiresAt": null,
         *       "scopes": [
         *         "shorts:write",
         *         "shorts:read",
         *         "account:read"
         *       ],
         *       "key": "csk_lEaNrfoTBo667nA23VKOvQ9aSwr05bVL2xuwZj"
         *     }
         */
        CreatedKey: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description The first characters of the key, to recognise it. */
            prefix: string;
            /** Format: date-time */
            createdAt: string;
            lastUsedAt: string | null;
            revokedAt: string | null;
            expiresAt: string | null;
            /** @description What the key may do (see the scopes in POST /keys). */
            scopes: string[];
            /** @description The secret. Shown once. */
            key: string;
        };
        /**
         * @description The low-balance alert, where account events go, and the default webhook payload form.
         * @example {
         *       "lowBalanceThreshold": 50,
         *       "eventsWebhookUrl": "https://example.com/hooks/account",
         *       "low": false,
         *       "webhookPayload": "full"
         *     }
         */
        CreditAlerts: {
            lowBalanceThreshold: number | null;
            eventsWebhookUrl: string | null;
            /** @description The balance is below the threshold now. */
            low: boolean;
            /** @description The account's default form of shorts.completed webhooks, for requests that do not say (webhookPayload): full (the whole result) or thin (counts and resultUrl). */
            webhookPayload: "full" | "thin";
        };
        /**
         * @example {
         *       "lowBalanceThreshold": 50,
         *       "eventsWebhookUrl": "https://example.com/hooks/account"
         *     }
         */
        CreditAlertsChange: {
            lowBalanceThreshold?: number | null;
            eventsWebhookUrl?: string | null;
            /** @description The default form of shorts.completed webhooks for requests that do not say. */
            webhookPayload?: "full" | "thin";
        };
        /** @description An account event: credits.low or webhook.destination.paused. */
        CreditEvent: {
            id: number;
            type: "credits.low" | "webhook.destination.paused";
            /** Format: date-time */
            createdAt: string;
            /** @description The event as it is delivered to eventsWebhookUrl (its type says which). */
            payload: components["schemas"]["CreditsLowPayload"] | components["schemas"]["DestinationPausedPayload"];
        };
        /**
         * @description The account's events, newest first.
         * @example {
         *       "events": [
         *         {
         *           "id": 7,
         *           "type": "credits.low",
         *           "createdAt": "2026-06-01T12:00:00.000Z",
         *           "payload": {
         *             "type": "credits.low",
         *             "timestamp": "2026-06-01T12:00:00.000Z",
         *             "data": {
         *               "accountId": "7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93",
         *               "balance": 49,
         *               "threshold": 50,
         *               "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0"
         *             }
         *           }
         *         }
         *       ]
         *     }
         */
        CreditEvents: {
            events: components["schemas"]["CreditEvent"][];
        };
        /**
         * @description The credits.low event as it is delivered (Standard Webhooks signed).
         * @example {
         *       "type": "credits.low",
         *       "timestamp": "2026-06-01T12:00:00.000Z",
         *       "data": {
         *         "accountId": "7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93",
         *         "balance": 49,
         *         "threshold": 50,
         *         "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0"
         *       }
         *     }
         */
        CreditsLowPayload: {
            /** @constant */
            type: "credits.low";
            /** Format: date-time */
            timestamp: string;
            data: {
                accountId: string;
                balance: number;
                threshold: number;
                requestId: string | null;
            };
        };
        /**
         * @description One attempt to deliver a webhook.
         * @example {
         *       "id": 41,
         *       "attempt": 1,
         *       "webhookId": "msg_req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "startedAt": "2026-06-01T12:00:01.300Z",
         *       "statusCode": 200,
         *       "latencyMs": 84,
         *       "outcome": "delivered",
         *       "error": null,
         *       "requestHeaders": {
         *         "content-type": "application/json",
         *         "webhook-id": "msg_req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *         "webhook-timestamp": "1780315201",
         *         "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
         *       },
         *       "responseExcerpt": "ok",
         *       "nextAttemptAt": null
         *     }
         */
        DeliveryAttempt: {
            id: number;
            /** @description 1 for the first delivery; manual redeliveries continue the count. */
            attempt: number;
            webhookId: string;
            /** Format: date-time */
            startedAt: string;
            statusCode: number | null;
            latencyMs: number | null;
            /** @description gone: the receiver answered 410, no more retries. */
            outcome: "delivered" | "failed" | "gone";
            error: string | null;
            requestHeaders: {
                [key: string]: string;
            } | null;
            responseExcerpt: string | null;
            nextAttemptAt: string | null;
        };
        /**
         * @description One webhook delivery attempt of the account, with what it delivered and where.
         * @example {
         *       "id": 42,
         *       "attempt": 2,
         *       "webhookId": "msg_req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "startedAt": "2026-06-01T12:00:06.400Z",
         *       "statusCode": 503,
         *       "latencyMs": 120,
         *       "outcome": "failed",
         *       "error": "The receiver answered HTTP 503.",
         *       "requestHeaders": {
         *         "content-type": "application/json",
         *         "webhook-id": "msg_req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *         "webhook-timestamp": "1780315201",
         *         "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
         *       },
         *       "responseExcerpt": "Service Unavailable",
         *       "nextAttemptAt": "2026-06-01T12:01:06.400Z",
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "batchId": null,
         *       "url": "https://example.com/hooks/shorts",
         *       "gaveUp": false
         *     }
         */
        DeliveryLogEntry: {
            id: number;
            /** @description 1 for the first delivery; manual redeliveries continue the count. */
            attempt: number;
            webhookId: string;
            /** Format: date-time */
            startedAt: string;
            statusCode: number | null;
            latencyMs: number | null;
            /** @description gone: the receiver answered 410, no more retries. */
            outcome: "delivered" | "failed" | "gone";
            error: string | null;
            requestHeaders: {
                [key: string]: string;
            } | null;
            responseExcerpt: string | null;
            nextAttemptAt: string | null;
            requestId: string | null;
            batchId: string | null;
            /** @description The webhookUrl the attempt was sent to. */
            url: string;
            /** @description This failed attempt was the last the retry schedule allows (no retry was scheduled). */
            gaveUp: boolean;
        };
        /**
         * @description One page of the account's delivery attempts, newest first.
         * @example {
         *       "deliveries": [
         *         {
         *           "id": 42,
         *           "attempt": 2,
         *           "webhookId": "msg_req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *           "startedAt": "2026-06-01T12:00:06.400Z",
         *           "statusCode": 503,
         *           "latencyMs": 120,
         *           "outcome": "failed",
         *           "error": "The receiver answered HTTP 503.",
         *           "requestHeaders": {
         *             "content-type": "application/json",
         *             "webhook-id": "msg_req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *             "webhook-timestamp": "1780315201",
         *             "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
         *           },
         *           "responseExcerpt": "Service Unavailable",
         *           "nextAttemptAt": "2026-06-01T12:01:06.400Z",
         *           "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *           "batchId": null,
         *           "url": "https://example.com/hooks/shorts",
         *           "gaveUp": false
         *         }
         *       ],
         *       "nextCursor": "ZC40Mg"
         *     }
         */
        DeliveryLogPage: {
            deliveries: components["schemas"]["DeliveryLogEntry"][];
            nextCursor: string | null;
        };
        /**
         * @description pending: no attempt yet; delivered: the latest attempt got a 2xx; retrying: it failed and another attempt is scheduled (nextAttemptAt); failed: it failed and the retry schedule is spent (gave up; redeliver to try again); gone: the receiver answered 410, no further attempts.
         * @example retrying
         */
        DeliveryState: "pending" | "delivered" | "retrying" | "failed" | "gone";
        /**
         * @description The webhook.destination.paused account event: every attempt to this URL failed for WEBHOOK_DISABLE_AFTER_DAYS; its new attempts are held until it is resumed.
         * @example {
         *       "type": "webhook.destination.paused",
         *       "timestamp": "2026-06-06T11:45:00.000Z",
         *       "data": {
         *         "destinationId": 3,
         *         "url": "https://example.com/hooks/shorts",
         *         "failingSince": "2026-06-01T11:40:00.000Z",
         *         "consecutiveFailures": 212,
         *         "lastError": "The receiver answered HTTP 503."
         *       }
         *     }
         */
        DestinationPausedPayload: {
            /** @constant */
            type: "webhook.destination.paused";
            /**
             * Format: date-time
             * @description When it was paused.
             */
            timestamp: string;
            data: {
                destinationId: number;
                url: string;
                /** Format: date-time */
                failingSince: string;
                consecutiveFailures: number;
                lastError: string | null;
            };
        };
        /**
         * @example {
         *       "check": "ledger",
         *       "severity": "ok",
         *       "summary": "Every balance equals the sum of its ledger entries.",
         *       "details": []
         *     }
         */
        DoctorFinding: {
            check: string;
            severity: "ok" | "warn" | "breach";
            summary: string;
            /** @description Offending rows, for the operator to look at. */
            details: string[];
        };
        /** @description The invariants checked by doctor. */
        DoctorReport: {
            ok: boolean;
            /** Format: date-time */
            checkedAt: string;
            findings: components["schemas"]["DoctorFinding"][];
        };
        /**
         * @description Error body of every route except the shorts operations.
         * @example {
         *       "error": "UNAUTHORIZED",
         *       "message": "A valid bearer token is required.",
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0"
         *     }
         */
        Error: {
            /** @description Machine-readable code (UPPER_SNAKE_CASE) from the errors catalog, e.g. UNAUTHORIZED. */
            error: string;
            /** @description What went wrong and what to do about it. */
            message: string;
            /** @description Quote it to support; also in the X-Request-Id header. */
            requestId: string;
        };
        /**
         * @description The spec's failure body of the shorts operations.
         * @example {
         *       "success": false,
         *       "error": "CHANNEL_NOT_FOUND",
         *       "message": "No channel exists at that address.",
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0"
         *     }
         */
        Failure: {
            /** @constant */
            success: false;
            /** @description Machine-readable code from the errors catalog, e.g. CHANNEL_NOT_FOUND. */
            error: string;
            message: string;
            requestId: string;
        };
        /**
         * @example {
         *       "id": "e5f6a7b8-c9d0-4e1f-a2b3-c4d5e6f7a8b9",
         *       "email": "grace@example.com",
         *       "credits": 100,
         *       "role": "customer",
         *       "createdBy": "ops@example.com",
         *       "createdAt": "2026-06-01T12:00:00.000Z",
         *       "expiresAt": "2026-06-04T12:00:00.000Z",
         *       "acceptedAt": null
         *     }
         */
        Invitation: {
            id: string;
            email: string;
            credits: number;
            role: components["schemas"]["Role"];
            createdBy: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string;
            acceptedAt: string | null;
        };
        /**
         * @description One page of a stored result.
         * @example {
         *       "success": true,
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "data": {
         *         "channel": {
         *           "kind": "youtube#channel",
         *           "etag": "Xj4pQbVnD1mR8rT2",
         *           "id": "UCdemo0000000000000000aa",
         *           "snippet": {
         *             "title": "Demo Channel",
         *             "description": "Shorts for the demo.",
         *             "customUrl": "@demo",
         *             "publishedAt": "2019-03-04T10:00:00Z",
         *             "thumbnails": {
         *               "default": {
         *                 "url": "https://i.ytimg.com/vi/dQw4w9WgXcQ/default.jpg",
         *                 "width": 120,
         *                 "height": 90
         *               }
         *             },
         *             "country": "US"
         *           },
         *           "statistics": {
         *             "viewCount": "1843000",
         *             "subscriberCount": "12400",
         *             "hiddenSubscriberCount": false,
         *             "videoCount": "140"
         *           },
         *           "brandingSettings": {
         *             "channel": {
         *               "title": "Demo Channel",
         *               "description": "Shorts for the demo."
         *             },
         *             "image": {
         *               "bannerExternalUrl": "https://yt3.googleusercontent.com/demo-banner"
         *             }
         *           }
         *         },
         *         "shorts": [
         *           {
         *             "kind": "youtube#video",
         *             "etag": "Pq9sLm2Kx7Vb4Nc1",
         *             "id": "dQw4w9WgXcQ",
         *             "snippet": {
         *               "publishedAt": "2026-05-30T18:00:00Z",
         *               "channelId": "UCdemo0000000000000000aa",
         *               "title": "A short in 58 seconds",
         *               "description": "The demo short.",
         *               "thumbnails": {
         *                 "default": {
         *                   "url": "https://i.ytimg.com/vi/dQw4w9WgXcQ/default.jpg",
         *                   "width": 120,
         *                   "height": 90
         *                 }
         *               },
         *               "channelTitle": "Demo Channel",
         *               "channelHandle": "@demo",
         *               "channelCustomUrl": "https://www.youtube.com/@demo",
         *               "tags": [
         *                 "demo"
         *               ],
         *               "categoryId": "22",
         *               "liveBroadcastContent": "none"
         *             },
         *             "statistics": {
         *               "viewCount": "48211",
         *               "likeCount": "3120",
         *               "favoriteCount": "0",
         *               "commentCount": "87"
         *             },
         *             "contentDetails": {
         *               "duration": "PT58S"
         *             },
         *             "shortUrl": "https://www.youtube.com/shorts/dQw4w9WgXcQ",
         *             "durationSeconds": 58
         *           }
         *         ]
         *       },
         *       "itemCount": 1,
         *       "totalItems": 120,
         *       "nextCursor": "eyJvIjoxfQ",
         *       "retentionDays": 7,
         *       "expiresAt": "2026-06-08T12:00:01.200Z"
         *     }
         */
        ItemsPage: {
            /** @constant */
            success: true;
            requestId: string;
            data: {
                channel: components["schemas"]["Channel"];
                /** @description This page of the result, in the result's order. */
                shorts: components["schemas"]["Short"][];
            };
            /** @description Shorts on this page. */
            itemCount: number;
            /** @description Shorts in the whole result. */
            totalItems: number;
            nextCursor: string | null;
            /** @description RESULT_RETENTION_DAYS: how long after completion a result can be read. */
            retentionDays: number;
            /**
             * Format: date-time
             * @description After this the result answers 410 RESULT_EXPIRED.
             */
            expiresAt: string;
        };
        /**
         * @description Requests and credits per key over the last days, busiest first.
         * @example {
         *       "days": 30,
         *       "keys": [
         *         {
         *           "keyId": "b3e1f6a2-4c7d-4e8f-a1b2-c3d4e5f6a7b8",
         *           "requests": 12,
         *           "credits": 31
         *         },
         *         {
         *           "keyId": null,
         *           "requests": 2,
         *           "credits": 2
         *         }
         *       ]
         *     }
         */
        KeyUsage: {
            days: number;
            keys: components["schemas"]["KeyUsageEntry"][];
        };
        KeyUsageEntry: {
            keyId: string | null;
            requests: number;
            /** @description Credits charged for those requests. */
            credits: number;
        };
        /**
         * @description One change of the credit balance.
         * @example {
         *       "id": 318,
         *       "kind": "charge",
         *       "amount": -3,
         *       "balanceAfter": 97,
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "note": null,
         *       "createdAt": "2026-06-01T12:00:00.000Z"
         *     }
         */
        LedgerEntry: {
            id: number;
            /** @description deduct: taken back by an operator (note says why). */
            kind: "grant" | "charge" | "deduct";
            /** @description Signed: charges and deductions are negative. */
            amount: number;
            balanceAfter: number;
            requestId: string | null;
            note: string | null;
            /** Format: date-time */
            createdAt: string;
        };
        /**
         * @description One page of the credit statement, newest first.
         * @example {
         *       "entries": [
         *         {
         *           "id": 318,
         *           "kind": "charge",
         *           "amount": -3,
         *           "balanceAfter": 97,
         *           "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *           "channelUrl": "https://www.youtube.com/@demo",
         *           "channelTitle": "Demo Channel",
         *           "via": "api",
         *           "note": null,
         *           "createdAt": "2026-06-01T12:00:00.000Z"
         *         }
         *       ],
         *       "nextCursor": "318"
         *     }
         */
        LedgerPage: {
            entries: components["schemas"]["StatementEntry"][];
            nextCursor: string | null;
        };
        /**
         * @description One of a channel's Shorts with stored history: its last counts and its growth.
         * @example {
         *       "videoId": "dQw4w9WgXcQ",
         *       "publishedAt": "2026-05-30T18:00:00.000Z",
         *       "last": {
         *         "at": "2026-06-01T12:00:00.000Z",
         *         "viewCount": 48211,
         *         "likeCount": 3120,
         *         "commentCount": 87,
         *         "exact": true
         *       },
         *       "growth": {
         *         "last24h": {
         *           "viewsGained": 5120,
         *           "since": "2026-05-31T12:10:00.000Z"
         *         }
         *       }
         *     }
         */
        Mover: {
            videoId: string;
            /** Format: date-time */
            publishedAt?: string;
            last: components["schemas"]["StatsPoint"];
            growth: components["schemas"]["ShortGrowth"];
        };
        /**
         * @description The configured price and webhook timings.
         * @example {
         *       "credits": {
         *         "creditsPerBlock": 1,
         *         "shortsPerBlock": 50,
         *         "minimumPerRequest": 1,
         *         "quotaUnitsPerCredit": 4,
         *         "dailyAllowanceUnits": 50,
         *         "formula": "max(1, ceil(shorts / 50) × 1, ceil(upstream units / 4)) credits; nothing is charged on failure."
         *       },
         *       "limits": {
         *         "maxShortsPerRequest": 5000,
         *         "resultRetentionDays": 7,
         *         "readsPerMinute": 600
         *       },
         *       "webhooks": {
         *         "timeoutSeconds": 15,
         *         "retryScheduleSeconds": [
         *           5,
         *           300,
         *           1800,
         *           7200,
         *           18000,
         *           36000,
         *           36000
         *         ],
         *         "maxAttempts": 8,
         *         "retryWindowSeconds": 99305,
         *         "secretOverlapSeconds": 86400
         *       },
         *       "watches": {
         *         "minIntervalSeconds": 900,
         *         "maxIntervalSeconds": 2592000,
         *         "maxPerAccount": 20,
         *         "trackStats": {
         *           "unitsPerCall": 1,
         *           "shortsPerCall": 50,
         *           "maxDays": 90,
         *           "perCheck": "ceil(n / 50) upstream units, n = the Shorts published within trackStats.days (and the listing page's), paid with the check at ceil(units / 4) credits beyond its prepaid units."
         *         }
         *       },
         *       "supportContact": "billing@example.com"
         *     }
         */
        Pricing: {
            credits: {
                /** @description Credits per started block of shortsPerBlock shorts returned (CREDITS_PER_BLOCK). */
                creditsPerBlock: number;
                /** @description SHORTS_PER_CREDIT_BLOCK. */
                shortsPerBlock: number;
                /** @description Every successful request costs at least this (MIN_CREDITS_PER_REQUEST). */
                minimumPerRequest: number;
                /** @description Upstream units one credit pays for; a request never costs less than ceil(units / this) (QUOTA_UNITS_PER_CREDIT). */
                quotaUnitsPerCredit: number;
                /** @description Unpaid upstream units per account and quota day for failed lookups (QUOTA_ALLOWANCE_UNITS). */
                dailyAllowanceUnits: number;
                /** @description The price, in words. */
                formula: string;
            };
            limits: {
                /** @description MAX_SHORTS_PER_REQUEST: more matching shorts make the answer truncated:true. */
                maxShortsPerRequest: number;
                /** @description RESULT_RETENTION_DAYS: how long stored results can be read and redelivered. */
                resultRetentionDays: number;
                /** @description READ_RATE_LIMIT_PER_MINUTE: calls per minute per account outside the metered routes (reads, keys, webhook tools); 0: unlimited. */
                readsPerMinute: number;
            };
            webhooks: {
                /** @description A receiver must answer 2xx within this (WEBHOOK_TIMEOUT_MS / 1000). */
                timeoutSeconds: number;
                /** @description Seconds before each retry after the first attempt (WEBHOOK_RETRY_SCHEDULE), with jitter; Retry-After is honoured. */
                retryScheduleSeconds: number[];
                /** @description 1 + the retries. */
                maxAttempts: number;
                /** @description Sum of the schedule: how long after the first attempt the last retry is sent. */
                retryWindowSeconds: number;
                /** @description How long a replaced signing secret keeps signing after a rotation (WEBHOOK_SECRET_OVERLAP_SECONDS). */
                secretOverlapSeconds: number;
            };
            watches: {
                /** @description The shortest check interval a watch accepts, also the default (WATCH_MIN_INTERVAL_SECONDS). */
                minIntervalSeconds: number;
                /** @description The longest check interval a watch accepts (30 days). */
                maxIntervalSeconds: number;
                /** @description Watches one account may have (WATCHES_PER_ACCOUNT). */
                maxPerAccount: number;
                /** @description A watch's trackStats: what refreshing the recent Shorts' counts costs per check. */
                trackStats: {
                    /** @description Upstream units one videos.list call costs. */
                    unitsPerCall: number;
                    /** @description Shorts one call refreshes. */
                    shortsPerCall: number;
                    /** @description The largest trackStats.days. */
                    maxDays: number;
                    /** @description What tracking adds to each check, in words. */
                    perCheck: string;
                };
            };
            supportContact: string | null;
        };
        /**
         * @example {
         *       "perMinute": 60,
         *       "perHour": 1000,
         *       "perDay": 10000
         *     }
         */
        RateLimits: {
            perMinute: number;
            perHour: number;
            perDay: number;
        };
        /**
         * @description A redelivery was queued.
         * @example {
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "status": "queued",
         *       "attempt": 2
         *     }
         */
        RedeliveryQueued: {
            requestId: string;
            /** @constant */
            status: "queued";
            /** @description The number the queued attempt will have. */
            attempt: number;
        };
        /**
         * @description Calls refused on one UTC day, by status, error code and key.
         * @example {
         *       "date": "2026-06-01",
         *       "total": 14,
         *       "counts": [
         *         {
         *           "httpStatus": 429,
         *           "error": "RATE_LIMITED",
         *           "apiKeyId": "b3e1f6a2-4c7d-4e8f-a1b2-c3d4e5f6a7b8",
         *           "count": 12,
         *           "lastAt": "2026-06-01T11:58:40.000Z"
         *         },
         *         {
         *           "httpStatus": 400,
         *           "error": "VALIDATION_FAILED",
         *           "apiKeyId": null,
         *           "count": 2,
         *           "lastAt": "2026-06-01T09:12:03.000Z"
         *         }
         *       ]
         *     }
         */
        RejectionDay: {
            /** @description UTC day, YYYY-MM-DD. */
            date: string;
            total: number;
            counts: {
                httpStatus: number;
                /** @description The error code answered, e.g. RATE_LIMITED. */
                error: string;
                apiKeyId: string | null;
                count: number;
                /** Format: date-time */
                lastAt: string;
            }[];
        };
        /**
         * @description Calls refused before a request was recorded, counted per UTC day.
         * @example {
         *       "days": [
         *         {
         *           "date": "2026-06-01",
         *           "total": 14,
         *           "counts": [
         *             {
         *               "httpStatus": 429,
         *               "error": "RATE_LIMITED",
         *               "apiKeyId": "b3e1f6a2-4c7d-4e8f-a1b2-c3d4e5f6a7b8",
         *               "count": 12,
         *               "lastAt": "2026-06-01T11:58:40.000Z"
         *             },
         *             {
         *               "httpStatus": 400,
         *               "error": "VALIDATION_FAILED",
         *               "apiKeyId": null,
         *               "count": 2,
         *               "lastAt": "2026-06-01T09:12:03.000Z"
         *             }
         *           ]
         *         }
         *       ]
         *     }
         */
        Rejections: {
            /** @description Newest first; days without refusals are left out. */
            days: components["schemas"]["RejectionDay"][];
        };
        /**
         * @description One shorts request with its result and webhook delivery attempts.
         * @example {
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "createdAt": "2026-06-01T12:00:00.000Z",
         *       "completedAt": "2026-06-01T12:00:01.200Z",
         *       "channelUrl": "https://www.youtube.com/@demo",
         *       "oldestDate": null,
         *       "limit": null,
         *       "webhookUrl": "https://example.com/hooks/shorts",
         *       "mode": "webhook",
         *       "status": "completed",
         *       "itemCount": 120,
         *       "creditsCharged": 3,
         *       "error": null,
         *       "via": "api",
         *       "result": {
         *         "itemCount": 120,
         *         "creditsCharged": 3
         *       },
         *       "deliveries": [
         *         {
         *           "id": 41,
         *           "attempt": 1,
         *           "webhookId": "msg_req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *           "startedAt": "2026-06-01T12:00:01.300Z",
         *           "statusCode": 200,
         *           "latencyMs": 84,
         *           "outcome": "delivered",
         *           "error": null,
         *           "requestHeaders": {
         *             "content-type": "application/json",
         *             "webhook-id": "msg_req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *             "webhook-timestamp": "1780315201",
         *             "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
         *           },
         *           "responseExcerpt": "ok",
         *           "nextAttemptAt": null
         *         }
         *       ]
         *     }
         */
        RequestDetail: {
            requestId: string;
            /** Format: date-time */
            createdAt: string;
            completedAt: string | null;
            channelUrl: string;
            oldestDate: number | null;
            limit: number | null;
            webhookUrl: string | null;
            mode: "sync" | "webhook";
            status: components["schemas"]["RequestStatus"];
            itemCount: number | null;
            creditsCharged: number | null;
            error: string | null;
            /** @description Sort and duration filters, the spending cap and include, when the request asked for any. */
            options?: {
                /**
                 * @description newest (default) | oldest | popular (exact viewCount, ties newest first). oldest and popular read the whole window (up to MAX_SHORTS_PER_REQUEST) and are priced by what was read; limit applies after sorting.
                 * @enum {unknown}
                 */
                sort?: "newest" | "oldest" | "popular";
                minDurationSeconds?: number;
                maxDurationSeconds?: number;
                maxCredits?: number;
                /** @description "growth": every short carries growth over the last 24 hours, 7 days and 30 days, computed from stored snapshots with this answer's counts as the latest point (absent where history is too short). No extra price. */
                include?: "growth"[];
            };
            /** @description The batch this request belongs to. */
            batchId?: string;
            /** @description The door the call came through: the REST API, or a tool of the MCP server (/mcp). */
            via: "api" | "mcp";
            /** @description Webhook requests: the delivered body. Synchronous requests: a summary (results are not retained). */
            result: unknown;
            deliveries: components["schemas"]["DeliveryAttempt"][];
        };
        /**
         * @description One request of the requests log: the recorded request, the key that made it and the state of its webhook delivery.
         * @example {
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "createdAt": "2026-06-01T12:00:00.000Z",
         *       "completedAt": "2026-06-01T12:00:01.200Z",
         *       "channelUrl": "https://www.youtube.com/@demo",
         *       "oldestDate": null,
         *       "limit": null,
         *       "webhookUrl": "https://example.com/hooks/shorts",
         *       "mode": "webhook",
         *       "status": "completed",
         *       "itemCount": 120,
         *       "creditsCharged": 3,
         *       "error": null,
         *       "via": "api",
         *       "apiKey": {
         *         "id": "b3e1f6a2-4c7d-4e8f-a1b2-c3d4e5f6a7b8",
         *         "name": "production backend",
         *         "prefix": "csk_lEaNrfoT"
         *       },
         *       "delivery": {
         *         "state": "retrying",
         *         "attempts": 1,
         *         "lastAttemptAt": "2026-06-01T12:00:01.300Z",
         *         "lastStatusCode": 503,
         *         "nextAttemptAt": "2026-06-01T12:00:06.300Z",
         *         "retryingUntil": "2026-06-01T12:13:18.300Z"
         *       }
         *     }
         */
        RequestLogEntry: {
            requestId: string;
            /** Format: date-time */
            createdAt: string;
            completedAt: string | null;
            channelUrl: string;
            oldestDate: number | null;
            limit: number | null;
            webhookUrl: string | null;
            mode: "sync" | "webhook";
            status: components["schemas"]["RequestStatus"];
            itemCount: number | null;
            creditsCharged: number | null;
            error: string | null;
            /** @description Sort and duration filters, the spending cap and include, when the request asked for any. */
            options?: {
                /**
                 * @description newest (default) | oldest | popular (exact viewCount, ties newest first). oldest and popular read the whole window (up to MAX_SHORTS_PER_REQUEST) and are priced by what was read; limit applies after sorting.
                 * @enum {unknown}
                 */
                sort?: "newest" | "oldest" | "popular";
                minDurationSeconds?: number;
                maxDurationSeconds?: number;
                maxCredits?: number;
                /** @description "growth": every short carries growth over the last 24 hours, 7 days and 30 days, computed from stored snapshots with this answer's counts as the latest point (absent where history is too short). No extra price. */
                include?: "growth"[];
            };
            /** @description The batch this request belongs to. */
            batchId?: string;
            /** @description The door the call came through: the REST API, or a tool of the MCP server (/mcp). */
            via: "api" | "mcp";
            apiKey: {
                id: string;
                name: string;
                prefix: string;
            } | null;
            delivery: {
                state: components["schemas"]["DeliveryState"];
                /** @description Attempts made so far (redeliveries included). */
                attempts: number;
                lastAttemptAt: string | null;
                lastStatusCode: number | null;
                nextAttemptAt: string | null;
                retryingUntil: string | null;
            } | null;
        };
        /**
         * @description One page of the requests log, newest first.
         * @example {
         *       "requests": [
         *         {
         *           "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *           "createdAt": "2026-06-01T12:00:00.000Z",
         *           "completedAt": "2026-06-01T12:00:01.200Z",
         *           "channelUrl": "https://www.youtube.com/@demo",
         *           "oldestDate": null,
         *           "limit": null,
         *           "webhookUrl": "https://example.com/hooks/shorts",
         *           "mode": "webhook",
         *           "status": "completed",
         *           "itemCount": 120,
         *           "creditsCharged": 3,
         *           "error": null,
         *           "via": "api",
         *           "apiKey": {
         *             "id": "b3e1f6a2-4c7d-4e8f-a1b2-c3d4e5f6a7b8",
         *             "name": "production backend",
         *             "prefix": "csk_lEaNrfoT"
         *           },
         *           "delivery": {
         *             "state": "retrying",
         *             "attempts": 1,
         *             "lastAttemptAt": "2026-06-01T12:00:01.300Z",
         *             "lastStatusCode": 503,
         *             "nextAttemptAt": "2026-06-01T12:00:06.300Z",
         *             "retryingUntil": "2026-06-01T12:13:18.300Z"
         *           }
         *         }
         *       ],
         *       "nextCursor": "MTc4MDMxNTIwMDAwMDAwMC5yZXFfbTF4MnkzejRhMWIyYzNkNGU1ZjZhN2I4YzlkMA"
         *     }
         */
        RequestLogPage: {
            requests: components["schemas"]["RequestLogEntry"][];
            nextCursor: string | null;
        };
        RequestStatus: "processing" | "completed" | "failed";
        /**
         * @description One shorts request as recorded.
         * @example {
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "createdAt": "2026-06-01T12:00:00.000Z",
         *       "completedAt": "2026-06-01T12:00:01.200Z",
         *       "channelUrl": "https://www.youtube.com/@demo",
         *       "oldestDate": null,
         *       "limit": null,
         *       "webhookUrl": null,
         *       "mode": "sync",
         *       "status": "completed",
         *       "itemCount": 120,
         *       "creditsCharged": 3,
         *       "error": null,
         *       "via": "api"
         *     }
         */
        RequestSummary: {
            requestId: string;
            /** Format: date-time */
            createdAt: string;
            completedAt: string | null;
            channelUrl: string;
            oldestDate: number | null;
            limit: number | null;
            webhookUrl: string | null;
            mode: "sync" | "webhook";
            status: components["schemas"]["RequestStatus"];
            itemCount: number | null;
            creditsCharged: number | null;
            error: string | null;
            /** @description Sort and duration filters, the spending cap and include, when the request asked for any. */
            options?: {
                /**
                 * @description newest (default) | oldest | popular (exact viewCount, ties newest first). oldest and popular read the whole window (up to MAX_SHORTS_PER_REQUEST) and are priced by what was read; limit applies after sorting.
                 * @enum {unknown}
                 */
                sort?: "newest" | "oldest" | "popular";
                minDurationSeconds?: number;
                maxDurationSeconds?: number;
                maxCredits?: number;
                /** @description "growth": every short carries growth over the last 24 hours, 7 days and 30 days, computed from stored snapshots with this answer's counts as the latest point (absent where history is too short). No extra price. */
                include?: "growth"[];
            };
            /** @description The batch this request belongs to. */
            batchId?: string;
            /** @description The door the call came through: the REST API, or a tool of the MCP server (/mcp). */
            via: "api" | "mcp";
        };
        Role: "customer" | "operator";
        /**
         * @description The new signing secret.
         * @example {
         *       "secret": "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD",
         *       "createdAt": "2026-06-01T12:00:00.000Z",
         *       "previousExpiresAt": "2026-06-02T12:00:00.000Z"
         *     }
         */
        RotatedSecret: {
            secret: string;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description Until then the replaced secret signs too.
             */
            previousExpiresAt: string;
        };
        /**
         * @description A dashboard session.
         * @example {
         *       "token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI3ZDJmIn0.c2lnbmF0dXJl",
         *       "user": {
         *         "id": "7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93",
         *         "email": "ada@example.com"
         *       },
         *       "expiresAt": "2026-06-01T23:59:00.000Z"
         *     }
         */
        Session: {
            /** @description A session JWT: send it as Authorization: Bearer <token>. */
            token: string;
            user: {
                id: string;
                email: string;
            };
            /** Format: date-time */
            expiresAt: string;
        };
        /**
         * @description One short, as the spec's Short table.
         * @example {
         *       "kind": "youtube#video",
         *       "etag": "Pq9sLm2Kx7Vb4Nc1",
         *       "id": "dQw4w9WgXcQ",
         *       "snippet": {
         *         "publishedAt": "2026-05-30T18:00:00Z",
         *         "channelId": "UCdemo0000000000000000aa",
         *         "title": "A short in 58 seconds",
         *         "description": "The demo short.",
         *         "thumbnails": {
         *           "default": {
         *             "url": "https://i.ytimg.com/vi/dQw4w9WgXcQ/default.jpg",
         *             "width": 120,
         *             "height": 90
         *           }
         *         },
         *         "channelTitle": "Demo Channel",
         *         "channelHandle": "@demo",
         *         "channelCustomUrl": "https://www.youtube.com/@demo",
         *         "tags": [
         *           "demo"
         *         ],
         *         "categoryId": "22",
         *         "liveBroadcastContent": "none"
         *       },
         *       "statistics": {
         *         "viewCount": "48211",
         *         "likeCount": "3120",
         *         "favoriteCount": "0",
         *         "commentCount": "87"
         *       },
         *       "contentDetails": {
         *         "duration": "PT58S"
         *       },
         *       "shortUrl": "https://www.youtube.com/shorts/dQw4w9WgXcQ",
         *       "durationSeconds": 58
         *     }
         */
        Short: {
            kind: string;
            /** @description The platform's ETag; absent in keyless (InnerTube) mode. */
            etag?: string;
            id: string;
            snippet: {
                publishedAt?: string;
                channelId?: string;
                title?: string;
                description?: string;
                thumbnails?: {
                    default?: {
                        url: string;
                        width?: number;
                        height?: number;
                    };
                    medium?: {
                        url: string;
                        width?: number;
                        height?: number;
                    };
                    high?: {
                        url: string;
                        width?: number;
                        height?: number;
                    };
                    standard?: {
                        url: string;
                        width?: number;
                        height?: number;
                    };
                    maxres?: {
                        url: string;
                        width?: number;
                        height?: number;
                    };
                };
                channelTitle?: string;
                /** @description The channel's handle, e.g. "@name" (from the channel's customUrl). */
                channelHandle?: string;
                /** @description The channel's address built from its customUrl, e.g. https://www.youtube.com/@name. */
                channelCustomUrl?: string;
                tags?: string[];
                categoryId?: string;
                liveBroadcastContent?: string;
                defaultLanguage?: string;
                localized?: {
                    title?: string;
                    description?: string;
                };
                defaultAudioLanguage?: string;
            };
            statistics: {
                viewCount?: string;
                likeCount?: string;
                dislikeCount?: string;
                favoriteCount?: string;
                commentCount?: string;
            };
            /** @description Absent when the platform sends no duration. */
            contentDetails?: {
                /** @description The video's duration as the platform gives it (ISO 8601, e.g. PT58S, PT1M5S, P0D). */
                duration: string;
            };
            /** @description https://www.youtube.com/shorts/{id} */
            shortUrl: string;
            growth?: components["schemas"]["ShortGrowth"];
            /** @description contentDetails.duration in seconds (Shorts run up to 180 s since 2024-10-15); absent when the platform sends no duration. */
            durationSeconds?: number;
        };
        /**
         * @description Growth over the last 24 hours, 7 days and 30 days; a window is absent where history is too short.
         * @example {
         *       "last24h": {
         *         "viewsGained": 5120,
         *         "likesGained": 210,
         *         "commentsGained": 4,
         *         "since": "2026-05-31T12:10:00.000Z"
         *       }
         *     }
         */
        ShortGrowth: {
            /**
             * @description The latest point minus the earliest stored point inside the window. Never extrapolated: a window with fewer than two points has no growth.
             * @example {
             *       "viewsGained": 5120,
             *       "likesGained": 210,
             *       "commentsGained": 4,
             *       "since": "2026-05-31T12:10:00.000Z"
             *     }
             */
            last24h?: {
                viewsGained: number;
                likesGained?: number;
                commentsGained?: number;
                /**
                 * Format: date-time
                 * @description The earliest stored point inside the window, which the gains are counted from: how much of the window the stored history covers.
                 */
                since: string;
            };
            /**
             * @description The latest point minus the earliest stored point inside the window. Never extrapolated: a window with fewer than two points has no growth.
             * @example {
             *       "viewsGained": 5120,
             *       "likesGained": 210,
             *       "commentsGained": 4,
             *       "since": "2026-05-31T12:10:00.000Z"
             *     }
             */
            last7d?: {
                viewsGained: number;
                likesGained?: number;
                commentsGained?: number;
                /**
                 * Format: date-time
                 * @description The earliest stored point inside the window, which the gains are counted from: how much of the window the stored history covers.
                 */
                since: string;
            };
            /**
             * @description The latest point minus the earliest stored point inside the window. Never extrapolated: a window with fewer than two points has no growth.
             * @example {
             *       "viewsGained": 5120,
             *       "likesGained": 210,
             *       "commentsGained": 4,
             *       "since": "2026-05-31T12:10:00.000Z"
             *     }
             */
            last30d?: {
                viewsGained: number;
                likesGained?: number;
                commentsGained?: number;
                /**
                 * Format: date-time
                 * @description The earliest stored point inside the window, which the gains are counted from: how much of the window the stored history covers.
                 */
                since: string;
            };
        };
        /**
         * @description A webhook request was accepted; the result is POSTed to webhookUrl.
         * @example {
         *       "success": true,
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "status": "processing",
         *       "message": "Accepted. The result will be POSTed to the webhookUrl with webhook-id msg_req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0; poll GET /api/youtube/shorts/req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0 for status."
         *     }
         */
        ShortsAccepted: {
            /** @constant */
            success: true;
            requestId: string;
            /** @constant */
            status: "processing";
            message: string;
        };
        /**
         * @description Body of the shorts.created webhook: new shorts of a watched channel.
         * @example {
         *       "type": "shorts.created",
         *       "timestamp": "2026-06-01T12:00:00.000Z",
         *       "data": {
         *         "watchId": "wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *         "checkId": "wck_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *         "channel": {
         *           "id": "UCdemo0000000000000000aa",
         *           "title": "Demo Channel"
         *         },
         *         "shorts": [
         *           {
         *             "kind": "youtube#video",
         *             "etag": "Pq9sLm2Kx7Vb4Nc1",
         *             "id": "dQw4w9WgXcQ",
         *             "snippet": {
         *               "publishedAt": "2026-05-30T18:00:00Z",
         *               "channelId": "UCdemo0000000000000000aa",
         *               "title": "A short in 58 seconds",
         *               "description": "The demo short.",
         *               "thumbnails": {
         *                 "default": {
         *                   "url": "https://i.ytimg.com/vi/dQw4w9WgXcQ/default.jpg",
         *                   "width": 120,
         *                   "height": 90
         *                 }
         *               },
         *               "channelTitle": "Demo Channel",
         *               "channelHandle": "@demo",
         *               "channelCustomUrl": "https://www.youtube.com/@demo",
         *               "tags": [
         *                 "demo"
         *               ],
         *               "categoryId": "22",
         *               "liveBroadcastContent": "none"
         *             },
         *             "statistics": {
         *               "viewCount": "48211",
         *               "likeCount": "3120",
         *               "favoriteCount": "0",
         *               "commentCount": "87"
         *             },
         *             "contentDetails": {
         *               "duration": "PT58S"
         *             },
         *             "shortUrl": "https://www.youtube.com/shorts/dQw4w9WgXcQ",
         *             "durationSeconds": 58
         *           }
         *         ]
         *       }
         *     }
         */
        ShortsCreatedPayload: {
            /** @constant */
            type: "shorts.created";
            /** Format: date-time */
            timestamp: string;
            data: {
                watchId: string;
                /** @description The check that found them. */
                checkId: string;
                channel: {
                    /** @description UC… */
                    id: string;
                    title: string;
                };
                /** @description The new shorts, oldest first, as POST /api/youtube/shorts shows them. */
                shorts: components["schemas"]["Short"][];
            };
        };
        /**
         * @description Body of the shorts.growth webhook: a tracked Short is taking off (the watch's alert).
         * @example {
         *       "type": "shorts.growth",
         *       "timestamp": "2026-06-01T12:00:00.000Z",
         *       "data": {
         *         "watchId": "wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *         "checkId": "wck_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *         "channel": {
         *           "id": "UCdemo0000000000000000aa",
         *           "title": "Demo Channel"
         *         },
         *         "videoId": "dQw4w9WgXcQ",
         *         "shortUrl": "https://www.youtube.com/shorts/dQw4w9WgXcQ",
         *         "viewCount": 148211,
         *         "viewsGained": 100000,
         *         "since": "2026-05-31T13:00:00.000Z",
         *         "withinHours": 24
         *       }
         *     }
         */
        ShortsGrowthPayload: {
            /** @constant */
            type: "shorts.growth";
            /** Format: date-time */
            timestamp: string;
            data: {
                watchId: string;
                /** @description The check that read the counts. */
                checkId: string;
                channel: {
                    /** @description UC… */
                    id: string;
                    title: string;
                };
                videoId: string;
                shortUrl: string;
                /** @description Views now. */
                viewCount: number;
                /** @description Views gained since `since`. */
                viewsGained: number;
                /**
                 * Format: date-time
                 * @description The earliest stored snapshot inside the alert window, the gain is counted from.
                 */
                since: string;
                /** @description The alert's window. */
                withinHours: number;
            };
        };
        ShortsRequest: {
            /**
             * @description Channel address (non-ASCII handles may be sent as they are, or percent-encoded): /@handle, /channel/UC…, /user/name, /c/name or /name on youtube.com (www., m., music.), with or without https://, or a bare @handle or channel id (UC…). Anything else answers 400 INVALID_CHANNEL_URL listing the accepted forms; a user name or password in the address is dropped before it is recorded.
             * @example https://www.youtube.com/@demo
             */
            channelUrl: string;
            /** @description Unix time in milliseconds (e.g. 1735689600000 for 2025-01-01); only shorts published at or after it are returned. */
            oldestDate?: number;
            /** @description At most this many shorts, applied after sort and duration filters. With sort=newest and no duration filter reading stops as soon as they are listed: fewer upstream calls, fewer credits. */
            limit?: number;
            /** @description When every Data API key is spent for the day. stale-ok (default): an earlier exact copy (stale:true) if one exists, else current keyless data with approximate counts (source:"innertube", approximateFields listed). exact: an earlier exact copy if one exists, else 503; never approximate values. */
            freshness?: "stale-ok" | "exact";
            /**
             * @description The most this request may cost. The read is capped at the shorts these credits pay for (newest first; sort and duration filters rank those only); when the channel has more, the answer has truncated:true and a message saying so. Never more is charged; 402 INSUFFICIENT_CREDITS when even the minimum price exceeds it.
             * @example 10
             */
            maxCredits?: number;
            /** @description "growth": every short carries growth over the last 24 hours, 7 days and 30 days, computed from stored snapshots with this answer's counts as the latest point (absent where history is too short). No extra price. */
            include?: "growth"[];
            /**
             * @description newest (default) | oldest | popular (exact viewCount, ties newest first). oldest and popular read the whole window (up to MAX_SHORTS_PER_REQUEST) and are priced by what was read; limit applies after sorting.
             * @enum {unknown}
             */
            sort?: "newest" | "oldest" | "popular";
            /** @description Only shorts at least this long (seconds, inclusive). Shorts without a known duration are left out. Filters apply after details are read: they never lower the price of the work read. */
            minDurationSeconds?: number;
            /** @description Only shorts at most this long (seconds, inclusive); not below minDurationSeconds. */
            maxDurationSeconds?: number;
            /**
             * Format: uri
             * @description When present, answer 202 at once and POST the result here later (Standard Webhooks signed).
             */
            webhookUrl?: string;
            /** @description Webhook requests: how shorts.completed carries the result. full (the default, unless the account's default is thin: PUT /accounts/alerts): the whole result, as the synchronous answer; thin: requestId, itemCount, creditsCharged, truncated and resultUrl (GET /api/youtube/shorts/{requestId}/items, paged). A full body over WEBHOOK_MAX_BODY_BYTES is sent thin (reason too_large). */
            webhookPayload?: "full" | "thin";
            /** @description Synchronous requests: keep the whole result for GET /api/youtube/shorts/{requestId}/items (paged) for RESULT_RETENTION_DAYS. Webhook requests are always kept. */
            store?: boolean;
        };
        /**
         * @description The spec's success body: the channel and its shorts.
         * @example {
         *       "success": true,
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "data": {
         *         "channel": {
         *           "kind": "youtube#channel",
         *           "etag": "Xj4pQbVnD1mR8rT2",
         *           "id": "UCdemo0000000000000000aa",
         *           "snippet": {
         *             "title": "Demo Channel",
         *             "description": "Shorts for the demo.",
         *             "customUrl": "@demo",
         *             "publishedAt": "2019-03-04T10:00:00Z",
         *             "thumbnails": {
         *               "default": {
         *                 "url": "https://i.ytimg.com/vi/dQw4w9WgXcQ/default.jpg",
         *                 "width": 120,
         *                 "height": 90
         *               }
         *             },
         *             "country": "US"
         *           },
         *           "statistics": {
         *             "viewCount": "1843000",
         *             "subscriberCount": "12400",
         *             "hiddenSubscriberCount": false,
         *             "videoCount": "140"
         *           },
         *           "brandingSettings": {
         *             "channel": {
         *               "title": "Demo Channel",
         *               "description": "Shorts for the demo."
         *             },
         *             "image": {
         *               "bannerExternalUrl": "https://yt3.googleusercontent.com/demo-banner"
         *             }
         *           }
         *         },
         *         "shorts": [
         *           {
         *             "kind": "youtube#video",
         *             "etag": "Pq9sLm2Kx7Vb4Nc1",
         *             "id": "dQw4w9WgXcQ",
         *             "snippet": {
         *               "publishedAt": "2026-05-30T18:00:00Z",
         *               "channelId": "UCdemo0000000000000000aa",
         *               "title": "A short in 58 seconds",
         *               "description": "The demo short.",
         *               "thumbnails": {
         *                 "default": {
         *                   "url": "https://i.ytimg.com/vi/dQw4w9WgXcQ/default.jpg",
         *                   "width": 120,
         *                   "height": 90
         *                 }
         *               },
         *               "channelTitle": "Demo Channel",
         *               "channelHandle": "@demo",
         *               "channelCustomUrl": "https://www.youtube.com/@demo",
         *               "tags": [
         *                 "demo"
         *               ],
         *               "categoryId": "22",
         *               "liveBroadcastContent": "none"
         *             },
         *             "statistics": {
         *               "viewCount": "48211",
         *               "likeCount": "3120",
         *               "favoriteCount": "0",
         *               "commentCount": "87"
         *             },
         *             "contentDetails": {
         *               "duration": "PT58S"
         *             },
         *             "shortUrl": "https://www.youtube.com/shorts/dQw4w9WgXcQ",
         *             "durationSeconds": 58
         *           }
         *         ]
         *       },
         *       "itemCount": 1,
         *       "creditsCharged": 1,
         *       "truncated": false,
         *       "fetchedAt": "2026-06-01T12:00:00.000Z",
         *       "stale": false,
         *       "source": "hybrid"
         *     }
         */
        ShortsResult: {
            /** @constant */
            success: true;
            requestId: string;
            data: {
                channel: components["schemas"]["Channel"];
                /** @description In the order asked for by sort (default newest first). */
                shorts: components["schemas"]["Short"][];
            };
            itemCount: number;
            creditsCharged: number;
            /** @description True when more matching shorts exist than were returned: beyond MAX_SHORTS_PER_REQUEST, beyond what the available credits paid to read, or beyond where the video platform kept failing after some shorts were read (message says which, and names the failure). The newest are returned and priced. A `limit` reached is not truncation. */
            truncated: boolean;
            /**
             * Format: date-time
             * @description When this data was read from the video platform (a cached result keeps its original time).
             */
            fetchedAt: string;
            /** @description True when the platform quota is spent for today and this is an older copy (see fetchedAt). */
            stale: boolean;
            /** @description data-api: Shorts playlist + videos.list; hybrid: ids from the channel's Shorts tab (InnerTube, no quota) + videos.list (exact); innertube: keyless, see approximateFields. */
            source: "data-api" | "hybrid" | "innertube";
            /** @description Keyless results only (source "innertube"): fields whose values are parsed from display text ("2.9M views") and so approximate: channel.statistics.subscriberCount, channel.statistics.videoCount, shorts[].statistics.viewCount. Absent in keyless mode: etag, channel snippet.publishedAt/defaultLanguage/country, statistics.viewCount/hiddenSubscriberCount, the other brandingSettings.channel fields, and on shorts categoryId, liveBroadcastContent, defaultLanguage, localized, defaultAudioLanguage, like/dislike/favorite/comment counts; publishedAt, description, tags and duration only for shorts whose player answer was read (the edge of an oldestDate window). Everything else is exact. */
            approximateFields?: string[];
            /** @description Present when truncated, stale or keyless (source "innertube"): explains what was left out, how old the data is, or which fields are approximate. */
            message?: string;
        };
        /**
         * @description A completed result without its shorts: page them from resultUrl.
         * @example {
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "itemCount": 5000,
         *       "creditsCharged": 100,
         *       "truncated": false,
         *       "resultUrl": "https://shorts.example.com/api/youtube/shorts/req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0/items",
         *       "thin": true,
         *       "reason": "requested"
         *     }
         */
        ShortsThinResult: {
            requestId: string;
            /** @description Shorts in the result. */
            itemCount: number;
            creditsCharged: number;
            /** @description As the full result's truncated. */
            truncated: boolean;
            /**
             * Format: uri
             * @description GET /api/youtube/shorts/{requestId}/items: the stored result, page by page (nextCursor), with the account's credentials; free, for RESULT_RETENTION_DAYS.
             */
            resultUrl: string;
            /** @constant */
            thin: true;
            /** @description requested: webhookPayload "thin" (the request's or the account's default); too_large: the full body would have been over WEBHOOK_MAX_BODY_BYTES. */
            reason: "requested" | "too_large";
        };
        /** @description Body of a thin shorts.completed webhook: the counts and where to page the result (data.thin is true). */
        ShortsThinWebhookPayload: {
            /** @constant */
            type: "shorts.completed";
            /** Format: date-time */
            timestamp: string;
            data: components["schemas"]["ShortsThinResult"];
        };
        /** @description Body of the shorts.completed and shorts.failed webhooks: data is the synchronous answer's body. */
        ShortsWebhookPayload: {
            type: "shorts.completed" | "shorts.failed";
            /** Format: date-time */
            timestamp: string;
            data: components["schemas"]["ShortsResult"] | components["schemas"]["Failure"];
        };
        /**
         * @description The sign-up is taken: the same answer whether the email was new (the account now exists) or already had an account (nothing changed). Sign in with POST /auth/login.
         * @example {
         *       "message": "Sign in with this email and password (POST /auth/login)."
         *     }
         */
        SignupAccepted: {
            /** @description What to do next: sign in with the email and password just sent. */
            message: string;
        };
        /**
         * @description How new users get an account here.
         * @example {
         *       "mode": "invite",
         *       "startingCredits": 0
         *     }
         */
        SignupInfo: {
            mode: "off" | "invite" | "open";
            startingCredits: number;
        };
        /**
         * @description An upstream source's recent health as this instance met it.
         * @example {
         *       "source": "innertube",
         *       "recentCalls": 40,
         *       "successRate": 0.25,
         *       "lastError": {
         *         "class": "bot-check",
         *         "status": 403,
         *         "at": "2026-06-01T12:00:00.000Z"
         *       },
         *       "breakerOpen": true,
         *       "breakers": {
         *         "resolve_url": "closed",
         *         "browse": "open",
         *         "player": "closed"
         *       }
         *     }
         */
        SourceHealth: {
            source: "data-api" | "innertube";
            /** @description Calls in the last 15 minutes (at most the last 200), by this instance. */
            recentCalls: number;
            successRate: number | null;
            lastError: {
                /** @description InnerTube: bot-check, consent, rate-limited, http-error, parse, unavailable, timeout. Data API: forbidden (quota, key), rate-limited, http-error, no-answer. */
                class: string;
                status: number | null;
                /** Format: date-time */
                at: string;
            } | null;
            /** @description Whether a breaker of this source pauses calls now. */
            breakerOpen: boolean;
            /** @description InnerTube's breaker per call kind (resolve_url, browse, player); none for the Data API. */
            breakers: {
                [key: string]: "closed" | "open" | "half-open";
            };
        };
        /**
         * @description A ledger entry with the request and channel it paid for.
         * @example {
         *       "id": 318,
         *       "kind": "charge",
         *       "amount": -3,
         *       "balanceAfter": 97,
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "channelUrl": "https://www.youtube.com/@demo",
         *       "channelTitle": "Demo Channel",
         *       "via": "api",
         *       "note": null,
         *       "createdAt": "2026-06-01T12:00:00.000Z"
         *     }
         */
        StatementEntry: {
            id: number;
            /** @description deduct: taken back by an operator (note says why). */
            kind: "grant" | "charge" | "deduct";
            /** @description Signed: charges and deductions are negative. */
            amount: number;
            balanceAfter: number;
            requestId: string | null;
            note: string | null;
            /** Format: date-time */
            createdAt: string;
            channelUrl: string | null;
            channelTitle: string | null;
            via: ("api" | "mcp") | null;
        };
        /**
         * @description One snapshot of a Short's public counts.
         * @example {
         *       "at": "2026-06-01T12:00:00.000Z",
         *       "viewCount": 48211,
         *       "likeCount": 3120,
         *       "commentCount": 87,
         *       "exact": true
         *     }
         */
        StatsPoint: {
            /**
             * Format: date-time
             * @description When the counts were read from the platform.
             */
            at: string;
            viewCount: number;
            likeCount?: number;
            commentCount?: number;
            /** @description False for counts parsed from display text ("2.9M views", keyless reads): approximate. */
            exact: boolean;
        };
        /** @description The fields to change; an empty body changes nothing. */
        UpdateWatch: {
            /** Format: uri */
            webhookUrl?: string;
            /** @description At least WATCH_MIN_INTERVAL_SECONDS, at most 30 days. */
            intervalSeconds?: number;
            /** @description paused: no checks until set to active again (then checked at once). */
            status?: "active" | "paused";
            trackStats?: {
                /** @description Each check also refreshes the counts of the channel's Shorts published within this many days (videos.list, 1 unit per 50 Shorts, paid like the rest of the check; GET /api/pricing). */
                days: number;
            } | null;
            alert?: {
                /** @description Views a Short must gain… */
                viewsGained: number;
                /** @description …within this many hours. */
                withinHours: number;
            } | null;
        };
        /**
         * @example {
         *       "date": "2026-06-01",
         *       "requests": 3,
         *       "items": 360,
         *       "credits": 9
         *     }
         */
        UsageDay: {
            /** @description UTC date, YYYY-MM-DD. */
            date: string;
            requests: number;
            /** @description Shorts returned. */
            items: number;
            /** @description Credits charged. */
            credits: number;
        };
        /**
         * @description A user as operators see it.
         * @example {
         *       "id": "7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93",
         *       "email": "ada@example.com",
         *       "role": "customer",
         *       "credits": 97,
         *       "disabledAt": null,
         *       "createdAt": "2026-05-01T09:00:00.000Z",
         *       "limitOverrides": {
         *         "perMinute": null,
         *         "perHour": null,
         *         "perDay": null
         *       },
         *       "rateLimits": {
         *         "perMinute": 60,
         *         "perHour": 1000,
         *         "perDay": 10000
         *       }
         *     }
         */
        User: {
            /** Format: uuid */
            id: string;
            email: string;
            role: components["schemas"]["Role"];
            credits: number;
            disabledAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** @description Per-account overrides; null = the default. */
            limitOverrides: {
                perMinute: number | null;
                perHour: number | null;
                perDay: number | null;
            };
            rateLimits: components["schemas"]["RateLimits"];
        };
        /**
         * @description A webhook delivery attempt of the user's: a request's, a batch summary's or an account event's.
         * @example {
         *       "id": 41,
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "webhookId": "msg_req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "attempt": 1,
         *       "startedAt": "2026-06-01T12:00:00.000Z",
         *       "statusCode": 503,
         *       "latencyMs": 120,
         *       "outcome": "failed",
         *       "error": "HTTP 503",
         *       "requestHeaders": null,
         *       "responseExcerpt": null,
         *       "nextAttemptAt": null
         *     }
         */
        UserDelivery: {
            id: number;
            /** @description 1 for the first delivery; manual redeliveries continue the count. */
            attempt: number;
            webhookId: string;
            /** Format: date-time */
            startedAt: string;
            statusCode: number | null;
            latencyMs: number | null;
            /** @description gone: the receiver answered 410, no more retries. */
            outcome: "delivered" | "failed" | "gone";
            error: string | null;
            requestHeaders: {
                [key: string]: string;
            } | null;
            responseExcerpt: string | null;
            nextAttemptAt: string | null;
            /** @description The request it delivered; null for a batch summary or an account event (credits.low, a watch's events), which its webhookId names. */
            requestId: string | null;
        };
        /**
         * @description A Short's stored counts over time and its growth.
         * @example {
         *       "success": true,
         *       "requestId": "req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "videoId": "dQw4w9WgXcQ",
         *       "channelId": "UCuAXFkgsw1L7xaCfnd5JJOw",
         *       "points": [
         *         {
         *           "at": "2026-05-31T12:10:00.000Z",
         *           "viewCount": 43091,
         *           "likeCount": 2910,
         *           "commentCount": 83,
         *           "exact": true
         *         },
         *         {
         *           "at": "2026-06-01T12:00:00.000Z",
         *           "viewCount": 48211,
         *           "likeCount": 3120,
         *           "commentCount": 87,
         *           "exact": true
         *         }
         *       ],
         *       "growth": {
         *         "last24h": {
         *           "viewsGained": 5120,
         *           "likesGained": 210,
         *           "commentsGained": 4,
         *           "since": "2026-05-31T12:10:00.000Z"
         *         }
         *       }
         *     }
         */
        VideoStats: {
            /** @constant */
            success: true;
            requestId: string;
            videoId: string;
            channelId: string;
            /** @description Oldest first, inside from..to (at most the newest 10,000 of them). */
            points: components["schemas"]["StatsPoint"][];
            growth: components["schemas"]["ShortGrowth"];
        };
        /**
         * @description A channel checked on a schedule (and on WebSub pushes) for new Shorts, reported to webhookUrl.
         * @example {
         *       "id": "wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *       "channelUrl": "https://www.youtube.com/@demo",
         *       "channel": {
         *         "id": "UCdemo0000000000000000aa",
         *         "title": "Demo Channel",
         *         "customUrl": "@demo"
         *       },
         *       "webhookUrl": "https://example.com/hooks/shorts",
         *       "intervalSeconds": 900,
         *       "status": "active",
         *       "pausedReason": null,
         *       "nextCheckAt": "2026-06-01T12:15:00.000Z",
         *       "lastCheckAt": "2026-06-01T12:00:00.000Z",
         *       "lastSeenShort": {
         *         "id": "dQw4w9WgXcQ",
         *         "shortUrl": "https://www.youtube.com/shorts/dQw4w9WgXcQ",
         *         "publishedAt": "2026-05-30T18:00:00Z"
         *       },
         *       "stats": {
         *         "checks": 12,
         *         "unitsSpent": 13,
         *         "shortsReported": 1,
         *         "prepaidUnits": 87
         *       },
         *       "trackStats": {
         *         "days": 7
         *       },
         *       "alert": {
         *         "viewsGained": 10000,
         *         "withinHours": 24
         *       },
         *       "lastError": null,
         *       "createdAt": "2026-05-31T09:00:00.000Z"
         *     }
         */
        Watch: {
            /** @description wch_… */
            id: string;
            /** @description The address as given. */
            channelUrl: string;
            channel: {
                id: string;
                title: string;
                customUrl: string | null;
            };
            webhookUrl: string;
            intervalSeconds: number;
            status: "active" | "paused";
            pausedReason: ("user" | "credits" | "channel") | null;
            nextCheckAt: string | null;
            lastCheckAt: string | null;
            lastSeenShort: {
                id: string;
                shortUrl: string;
                publishedAt: string | null;
            } | null;
            stats: {
                checks: number;
                /** @description Data API units spent by this watch's checks. */
                unitsSpent: number;
                shortsReported: number;
                /** @description Units already paid for (1 credit buys QUOTA_UNITS_PER_CREDIT units). */
                prepaidUnits: number;
            };
            trackStats: {
                /** @description Each check also refreshes the counts of the channel's Shorts published within this many days (videos.list, 1 unit per 50 Shorts, paid like the rest of the check; GET /api/pricing). */
                days: number;
            } | null;
            alert: {
                /** @description Views a Short must gain… */
                viewsGained: number;
                /** @description …within this many hours. */
                withinHours: number;
            } | null;
            lastError: string | null;
            /** Format: date-time */
            createdAt: string;
        };
        /**
         * @description One check of a watch.
         * @example {
         *       "id": "wck_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "trigger": "schedule",
         *       "units": 2,
         *       "newShorts": 1,
         *       "creditsCharged": 1,
         *       "outcome": "ok",
         *       "error": null,
         *       "createdAt": "2026-06-01T12:00:00.000Z"
         *     }
         */
        WatchCheck: {
            /** @description wck_… */
            id: string;
            /** @description create: the baseline made when the watch was created (reports nothing); schedule; push: a WebSub notification; manual: POST …/check. */
            trigger: "create" | "schedule" | "push" | "manual";
            /** @description Data API units the check spent. */
            units: number;
            /** @description Shorts it reported (one shorts.created event). */
            newShorts: number;
            creditsCharged: number;
            outcome: "ok" | "failed" | "paused";
            error: string | null;
            /** Format: date-time */
            createdAt: string;
        };
        /**
         * @description A manual check is queued.
         * @example {
         *       "watchId": "wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *       "checkId": "wck_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "status": "queued"
         *     }
         */
        WatchCheckQueued: {
            watchId: string;
            /** @description The check's id: it appears in the watch's checks once it has run. */
            checkId: string;
            /** @constant */
            status: "queued";
        };
        /**
         * @description A watch with its latest checks and events.
         * @example {
         *       "watch": {
         *         "id": "wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *         "channelUrl": "https://www.youtube.com/@demo",
         *         "channel": {
         *           "id": "UCdemo0000000000000000aa",
         *           "title": "Demo Channel",
         *           "customUrl": "@demo"
         *         },
         *         "webhookUrl": "https://example.com/hooks/shorts",
         *         "intervalSeconds": 900,
         *         "status": "active",
         *         "pausedReason": null,
         *         "nextCheckAt": "2026-06-01T12:15:00.000Z",
         *         "lastCheckAt": "2026-06-01T12:00:00.000Z",
         *         "lastSeenShort": {
         *           "id": "dQw4w9WgXcQ",
         *           "shortUrl": "https://www.youtube.com/shorts/dQw4w9WgXcQ",
         *           "publishedAt": "2026-05-30T18:00:00Z"
         *         },
         *         "stats": {
         *           "checks": 12,
         *           "unitsSpent": 13,
         *           "shortsReported": 1,
         *           "prepaidUnits": 87
         *         },
         *         "trackStats": {
         *           "days": 7
         *         },
         *         "alert": {
         *           "viewsGained": 10000,
         *           "withinHours": 24
         *         },
         *         "lastError": null,
         *         "createdAt": "2026-05-31T09:00:00.000Z"
         *       },
         *       "checks": [
         *         {
         *           "id": "wck_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *           "trigger": "schedule",
         *           "units": 2,
         *           "newShorts": 1,
         *           "creditsCharged": 1,
         *           "outcome": "ok",
         *           "error": null,
         *           "createdAt": "2026-06-01T12:00:00.000Z"
         *         }
         *       ],
         *       "events": [
         *         {
         *           "id": "evt_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *           "type": "shorts.created",
         *           "createdAt": "2026-06-01T12:00:00.000Z",
         *           "data": {
         *             "watchId": "wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *             "checkId": "wck_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *             "channel": {
         *               "id": "UCdemo0000000000000000aa",
         *               "title": "Demo Channel"
         *             },
         *             "shorts": [
         *               {
         *                 "kind": "youtube#video",
         *                 "etag": "Pq9sLm2Kx7Vb4Nc1",
         *                 "id": "dQw4w9WgXcQ",
         *                 "snippet": {
         *                   "publishedAt": "2026-05-30T18:00:00Z",
         *                   "channelId": "UCdemo0000000000000000aa",
         *                   "title": "A short in 58 seconds",
         *                   "description": "The demo short.",
         *                   "thumbnails": {
         *                     "default": {
         *                       "url": "https://i.ytimg.com/vi/dQw4w9WgXcQ/default.jpg",
         *                       "width": 120,
         *                       "height": 90
         *                     }
         *                   },
         *                   "channelTitle": "Demo Channel",
         *                   "channelHandle": "@demo",
         *                   "channelCustomUrl": "https://www.youtube.com/@demo",
         *                   "tags": [
         *                     "demo"
         *                   ],
         *                   "categoryId": "22",
         *                   "liveBroadcastContent": "none"
         *                 },
         *                 "statistics": {
         *                   "viewCount": "48211",
         *                   "likeCount": "3120",
         *                   "favoriteCount": "0",
         *                   "commentCount": "87"
         *                 },
         *                 "contentDetails": {
         *                   "duration": "PT58S"
         *                 },
         *                 "shortUrl": "https://www.youtube.com/shorts/dQw4w9WgXcQ",
         *                 "durationSeconds": 58
         *               }
         *             ]
         *           },
         *           "delivery": {
         *             "attempts": 1,
         *             "outcome": "delivered",
         *             "statusCode": 200
         *           }
         *         }
         *       ]
         *     }
         */
        WatchDetail: {
            watch: components["schemas"]["Watch"];
            /** @description The newest checks, newest first. */
            checks: components["schemas"]["WatchCheck"][];
            /** @description The newest events, newest first. */
            events: components["schemas"]["WatchEvent"][];
        };
        /**
         * @description An event of a watch, with the state of its delivery.
         * @example {
         *       "id": "evt_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *       "type": "shorts.created",
         *       "createdAt": "2026-06-01T12:00:00.000Z",
         *       "data": {
         *         "watchId": "wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *         "checkId": "wck_m1x2y3z4a1b2c3d4e5f6a7b8c9d0",
         *         "channel": {
         *           "id": "UCdemo0000000000000000aa",
         *           "title": "Demo Channel"
         *         },
         *         "shorts": [
         *           {
         *             "kind": "youtube#video",
         *             "etag": "Pq9sLm2Kx7Vb4Nc1",
         *             "id": "dQw4w9WgXcQ",
         *             "snippet": {
         *               "publishedAt": "2026-05-30T18:00:00Z",
         *               "channelId": "UCdemo0000000000000000aa",
         *               "title": "A short in 58 seconds",
         *               "description": "The demo short.",
         *               "thumbnails": {
         *                 "default": {
         *                   "url": "https://i.ytimg.com/vi/dQw4w9WgXcQ/default.jpg",
         *                   "width": 120,
         *                   "height": 90
         *                 }
         *               },
         *               "channelTitle": "Demo Channel",
         *               "channelHandle": "@demo",
         *               "channelCustomUrl": "https://www.youtube.com/@demo",
         *               "tags": [
         *                 "demo"
         *               ],
         *               "categoryId": "22",
         *               "liveBroadcastContent": "none"
         *             },
         *             "statistics": {
         *               "viewCount": "48211",
         *               "likeCount": "3120",
         *               "favoriteCount": "0",
         *               "commentCount": "87"
         *             },
         *             "contentDetails": {
         *               "duration": "PT58S"
         *             },
         *             "shortUrl": "https://www.youtube.com/shorts/dQw4w9WgXcQ",
         *             "durationSeconds": 58
         *           }
         *         ]
         *       },
         *       "delivery": {
         *         "attempts": 1,
         *         "outcome": "delivered",
         *         "statusCode": 200
         *       }
         *     }
         */
        WatchEvent: {
            /** @description evt_…; the webhook-id is msg_<id>. */
            id: string;
            /** @description shorts.created, shorts.growth, watch.paused or watch.resumed. */
            type: string;
            /** Format: date-time */
            createdAt: string;
            /** @description The event's data, as delivered: the data of ShortsCreatedPayload, WatchPausedPayload or WatchResumedPayload. */
            data: unknown;
            delivery: {
                attempts: number;
                outcome: string | null;
                statusCode: number | null;
            };
        };
        /**
         * @description The caller's watches, oldest first.
         * @example {
         *       "watches": [
         *         {
         *           "id": "wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *           "channelUrl": "https://www.youtube.com/@demo",
         *           "channel": {
         *             "id": "UCdemo0000000000000000aa",
         *             "title": "Demo Channel",
         *             "customUrl": "@demo"
         *           },
         *           "webhookUrl": "https://example.com/hooks/shorts",
         *           "intervalSeconds": 900,
         *           "status": "active",
         *           "pausedReason": null,
         *           "nextCheckAt": "2026-06-01T12:15:00.000Z",
         *           "lastCheckAt": "2026-06-01T12:00:00.000Z",
         *           "lastSeenShort": {
         *             "id": "dQw4w9WgXcQ",
         *             "shortUrl": "https://www.youtube.com/shorts/dQw4w9WgXcQ",
         *             "publishedAt": "2026-05-30T18:00:00Z"
         *           },
         *           "stats": {
         *             "checks": 12,
         *             "unitsSpent": 13,
         *             "shortsReported": 1,
         *             "prepaidUnits": 87
         *           },
         *           "trackStats": {
         *             "days": 7
         *           },
         *           "alert": {
         *             "viewsGained": 10000,
         *             "withinHours": 24
         *           },
         *           "lastError": null,
         *           "createdAt": "2026-05-31T09:00:00.000Z"
         *         }
         *       ]
         *     }
         */
        WatchList: {
            watches: components["schemas"]["Watch"][];
        };
        /**
         * @description Body of the watch.paused webhook: the account could not pay for a check, so the watch is paused until it can; or checks in a row found the channel gone.
         * @example {
         *       "type": "watch.paused",
         *       "timestamp": "2026-06-01T12:00:00.000Z",
         *       "data": {
         *         "watchId": "wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *         "channel": {
         *           "id": "UCdemo0000000000000000aa",
         *           "title": "Demo Channel"
         *         },
         *         "reason": "credits",
         *         "message": "Not enough credits for this watch's next check."
         *       }
         *     }
         */
        WatchPausedPayload: {
            /** @constant */
            type: "watch.paused";
            /** Format: date-time */
            timestamp: string;
            data: {
                watchId: string;
                channel: {
                    /** @description UC… */
                    id: string;
                    title: string;
                };
                /** @description credits: the account cannot pay for the next check (resumed by itself when it can); channel: YouTube no longer has the channel (resumed by PATCH status active). */
                reason: "credits" | "channel";
                message: string;
            };
        };
        /**
         * @description Body of the watch.resumed webhook: a watch paused for credits is checked again.
         * @example {
         *       "type": "watch.resumed",
         *       "timestamp": "2026-06-01T12:00:00.000Z",
         *       "data": {
         *         "watchId": "wch_m1x2y3z4a1b2c3d4e5f6a7b8",
         *         "channel": {
         *           "id": "UCdemo0000000000000000aa",
         *           "title": "Demo Channel"
         *         },
         *         "reason": "credits"
         *       }
         *     }
         */
        WatchResumedPayload: {
            /** @constant */
            type: "watch.resumed";
            /** Format: date-time */
            timestamp: string;
            data: {
                watchId: string;
                channel: {
                    /** @description UC… */
                    id: string;
                    title: string;
                };
                /** @constant */
                reason: "credits";
            };
        };
        /**
         * @description The health of one webhook destination, as its delivery attempts show it.
         * @example {
         *       "id": 3,
         *       "url": "https://example.com/hooks/shorts",
         *       "state": "failing",
         *       "successRate": 0.75,
         *       "recentAttempts": 8,
         *       "consecutiveFailures": 2,
         *       "failingSince": "2026-06-01T11:40:00.000Z",
         *       "lastError": "The receiver answered HTTP 503.",
         *       "lastStatusCode": 503,
         *       "lastFailureAt": "2026-06-01T11:45:00.000Z",
         *       "lastSuccessAt": "2026-06-01T11:30:00.000Z",
         *       "lastAttemptAt": "2026-06-01T11:45:00.000Z",
         *       "pausedAt": null
         *     }
         */
        WebhookDestination: {
            /** @description Pass to POST /accounts/webhook-destinations/{destinationId}/resume. */
            id: number;
            /** @description A URL the account has sent webhooks to (each distinct URL is one destination). */
            url: string;
            /** @description healthy: the last attempt succeeded; failing: the last attempts failed; paused: failing for WEBHOOK_DISABLE_AFTER_DAYS, new attempts are held until it is resumed. */
            state: "healthy" | "failing" | "paused";
            successRate: number | null;
            /** @description Attempts sent over the last 24 hours. */
            recentAttempts: number;
            /** @description Failed attempts since the last success (or the resume). */
            consecutiveFailures: number;
            failingSince: string | null;
            lastError: string | null;
            lastStatusCode: number | null;
            lastFailureAt: string | null;
            lastSuccessAt: string | null;
            /** Format: date-time */
            lastAttemptAt: string;
            pausedAt: string | null;
        };
        /**
         * @description The health of the account's webhook destinations.
         * @example {
         *       "destinations": [
         *         {
         *           "id": 3,
         *           "url": "https://example.com/hooks/shorts",
         *           "state": "failing",
         *           "successRate": 0.75,
         *           "recentAttempts": 8,
         *           "consecutiveFailures": 2,
         *           "failingSince": "2026-06-01T11:40:00.000Z",
         *           "lastError": "The receiver answered HTTP 503.",
         *           "lastStatusCode": 503,
         *           "lastFailureAt": "2026-06-01T11:45:00.000Z",
         *           "lastSuccessAt": "2026-06-01T11:30:00.000Z",
         *           "lastAttemptAt": "2026-06-01T11:45:00.000Z",
         *           "pausedAt": null
         *         }
         *       ],
         *       "disableAfterDays": 5
         *     }
         */
        WebhookDestinations: {
            /** @description The most recently used first (at most 100). */
            destinations: components["schemas"]["WebhookDestination"][];
            /** @description WEBHOOK_DISABLE_AFTER_DAYS: a destination failing this long is paused (0: never). */
            disableAfterDays: number;
        };
        /**
         * @example {
         *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
         *       "createdAt": "2026-05-01T09:00:00.000Z",
         *       "expiresAt": null
         *     }
         */
        WebhookSecret: {
            /** @description whsec_… (base64 key after the prefix), as Standard Webhooks libraries take it. */
            secret: string;
            /** Format: date-time */
            createdAt: string;
            expiresAt: string | null;
        };
        /**
         * @description The webhook.test event POST /webhooks/test sends (Standard Webhooks signed, webhook-id msg_test_…).
         * @example {
         *       "type": "webhook.test",
         *       "timestamp": "2026-06-01T12:00:00.000Z",
         *       "data": {
         *         "message": "A test event from channel-shorts: verify its signature like any other event. It carries no result."
         *       }
         *     }
         */
        WebhookTestPayload: {
            /** @constant */
            type: "webhook.test";
            /** Format: date-time */
            timestamp: string;
            data: {
                message: string;
            };
        };
        /**
         * @example {
         *       "url": "https://example.com/hooks/shorts"
         *     }
         */
        WebhookTestRequest: {
            /**
             * Format: uri
             * @description Where to POST the test event (the same address rules as webhookUrl).
             */
            url: string;
        };
        /**
         * @description The outcome of one webhook.test attempt.
         * @example {
         *       "webhookId": "msg_test_5f0c2a9e7b1d4c3a8e6f2b10",
         *       "url": "https://example.com/hooks/shorts",
         *       "outcome": "delivered",
         *       "statusCode": 200,
         *       "latencyMs": 84,
         *       "error": null,
         *       "requestHeaders": {
         *         "content-type": "application/json",
         *         "webhook-id": "msg_test_5f0c2a9e7b1d4c3a8e6f2b10",
         *         "webhook-timestamp": "1780315201",
         *         "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
         *       },
         *       "requestBody": "{\"type\":\"webhook.test\",\"timestamp\":\"2026-06-01T12:00:00.000Z\",\"data\":{\"message\":\"A test event from channel-shorts: verify its signature like any other event. It carries no result.\"}}",
         *       "responseExcerpt": "ok"
         *     }
         */
        WebhookTestResult: {
            /** @description msg_test_…: receivers that deduplicate see each test as new. */
            webhookId: string;
            url: string;
            outcome: "delivered" | "failed" | "gone";
            statusCode: number | null;
            latencyMs: number;
            error: string | null;
            requestHeaders: {
                [key: string]: string;
            } | null;
            /** @description The exact bytes signed and sent. */
            requestBody: string;
            responseExcerpt: string | null;
        };
    };
    responses: never;
    parameters: {
        /**
         * @description A unique value per intended call (a UUID), kept per account: a retry with the same key and body within 24 h answers what the first call answered (status, body, requestId) with Idempotent-Replayed: true and charges nothing more; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, and a retry while the first call still runs is 409 IDEMPOTENCY_IN_PROGRESS with Retry-After.
         * @example 5f0c6b1e-3c1d-4a57-9a63-0f3a8d2c9b71
         */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description true when this answer is the stored answer of an earlier call with the same Idempotency-Key (nothing was run or charged again). */
        IdempotentReplayed: "true";
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Signed in: a session JWT for the dashboard. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Wrong email or password. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The account is disabled. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed attempts for this email from this address (or from this address overall); see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many logins are being checked at once, or a backing store is down; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    renewSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A new session JWT for the same user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired session. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key, or a disabled account. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys, newest first, without secrets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: components["schemas"]["ApiKey"][];
                    };
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended call (a UUID), kept per account: a retry with the same key and body within 24 h answers what the first call answered (status, body, requestId) with Idempotent-Replayed: true and charges nothing more; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, and a retry while the first call still runs is 409 IDEMPOTENCY_IN_PROGRESS with Retry-After.
                 * @example 5f0c6b1e-3c1d-4a57-9a63-0f3a8d2c9b71
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A descriptive name, e.g. "production backend". */
                    name: string;
                    /** @description What the key may do; every scope when omitted. shorts:write: Create shorts requests and redeliver webhooks (costs credits). shorts:read: List shorts requests and read their results. account:read: Read the account: balance, limits, usage and ledger. */
                    scopes?: ("shorts:write" | "shorts:read" | "account:read")[];
                    /**
                     * Format: date-time
                     * @description The key stops working at this time (in the future, at most 5 years ahead); never when omitted.
                     */
                    expiresAt?: string;
                };
            };
        };
        responses: {
            /** @description The key with its secret (shown once). */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedKey"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The account holds the most active keys it may; revoke one first. Or: A call with this Idempotency-Key is still running; see Retry-After. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiKeyUsage: {
        parameters: {
            query?: {
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Requests and credits per key, busiest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyUsage"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such key on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccountUsage: {
        parameters: {
            query?: {
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per UTC day, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        days: components["schemas"]["UsageDay"][];
                    };
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secrets that sign, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secrets: components["schemas"]["WebhookSecret"][];
                    };
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret; the replaced one signs until previousExpiresAt. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedSecret"];
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many rotations this hour; see Retry-After. Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDestinations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account's destinations, the most recently used first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDestinations"];
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeWebhookDestination: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id GET …/webhook-destinations gives. */
                destinationId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination after resuming. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDestination"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No destination with this id for this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listLedgerEntries: {
        parameters: {
            query?: {
                limit?: number;
                /** @description nextCursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the statement, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerPage"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportLedgerCsv: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV with a header row: id, createdAt, kind, amount, balanceAfter, requestId, channelUrl, channelTitle, note. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBalanceHistory: {
        parameters: {
            query?: {
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The balance at the end of each day, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BalanceHistory"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCreditAlerts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The alert settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditAlerts"];
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setCreditAlerts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreditAlertsChange"];
            };
        };
        responses: {
            /** @description The alert settings after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditAlerts"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCreditEvents: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account's events, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditEvents"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRequests: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The previous page's nextCursor, unchanged (opaque). Omit for the first page. */
                cursor?: string;
                status?: "processing" | "completed" | "failed";
                mode?: "sync" | "webhook";
                /** @description An API key id, or "session" for requests made from the dashboard. */
                key?: string;
                /** @description Text anywhere in the channel address (case-insensitive). */
                channel?: string;
                /** @description Requests created at or after this instant. */
                from?: string;
                /** @description Requests created before this instant. */
                to?: string;
                delivery?: components["schemas"]["DeliveryState"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Requests, newest first, one page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestLogPage"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    listChannelShorts: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended call (a UUID), kept per account: a retry with the same key and body within 24 h answers what the first call answered (status, body, requestId) with Idempotent-Replayed: true and charges nothing more; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, and a retry while the first call still runs is 409 IDEMPOTENCY_IN_PROGRESS with Retry-After.
                 * @example 5f0c6b1e-3c1d-4a57-9a63-0f3a8d2c9b71
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShortsRequest"];
            };
        };
        responses: {
            /** @description The channel and its shorts (no webhookUrl). */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShortsResult"];
                };
            };
            /** @description Accepted (webhookUrl given): the result will be POSTed there. */
            202: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShortsAccepted"];
                };
            };
            /** @description Invalid body, unrecognised channel address or unsafe webhookUrl. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The available credits cannot cover the price (quoted in the message). */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description No channel at that address. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A call with this Idempotency-Key is still running; see Retry-After. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Rate limit exceeded (RATE_LIMITED; see Retry-After and RateLimit headers), or the account's daily allowance of unpaid upstream work is spent (QUOTA_ALLOWANCE_EXHAUSTED; Retry-After at midnight America/Los_Angeles). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The video platform failed or rejected the service's credentials. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Every platform key is out of quota for today and no earlier result exists (UPSTREAM_QUOTA_EXHAUSTED, Retry-After at the next quota day), the platform throttles (UPSTREAM_RATE_LIMITED), its web API blocks the service with a bot check or a consent wall (UPSTREAM_BLOCKED; a Data API key or an outbound proxy helps), it cannot be reached (UPSTREAM_UNAVAILABLE), or a backing store is down. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The video platform did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    getRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The requestId of a shorts request.
                 * @example req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0
                 */
                requestId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestDetail"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description No such request on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    redeliverRequest: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended call (a UUID), kept per account: a retry with the same key and body within 24 h answers what the first call answered (status, body, requestId) with Idempotent-Replayed: true and charges nothing more; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, and a retry while the first call still runs is 409 IDEMPOTENCY_IN_PROGRESS with Retry-After.
                 * @example 5f0c6b1e-3c1d-4a57-9a63-0f3a8d2c9b71
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description The requestId of a shorts request.
                 * @example req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0
                 */
                requestId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The redelivery is queued. */
            202: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RedeliveryQueued"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description No such request on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Not a settled webhook request, or a delivery is queued or running. Or: A call with this Idempotency-Key is still running; see Retry-After. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The result is past RESULT_RETENTION_DAYS. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many redeliveries (at most 10 per minute and 100 per hour); see Retry-After. Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    listBatches: {
        parameters: {
            query?: {
                /** @description Batches per page. */
                limit?: number;
                /** @description The previous page's nextCursor, unchanged (opaque). Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of batches, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchList"];
                };
            };
            /** @description Invalid input; the message says what is accepted. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    submitBatch: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended call (a UUID), kept per account: a retry with the same key and body within 24 h answers what the first call answered (status, body, requestId) with Idempotent-Replayed: true and charges nothing more; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, and a retry while the first call still runs is 409 IDEMPOTENCY_IN_PROGRESS with Retry-After.
                 * @example 5f0c6b1e-3c1d-4a57-9a63-0f3a8d2c9b71
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchRequest"];
            };
        };
        responses: {
            /** @description Accepted: one webhook request per item. */
            202: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchAccepted"];
                };
            };
            /** @description Invalid input (an item's channelUrl not a channel address, or an unsafe webhookUrl); the message says what is accepted. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The available credits cannot reserve every item; nothing was accepted. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A call with this Idempotency-Key is still running; see Retry-After. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After and RateLimit headers). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    getBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The batchId returned by POST /api/youtube/shorts/batch. */
                batchId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch's progress. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchStatus"];
                };
            };
            /** @description Invalid input; the message says what is accepted. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description No such batch for this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    redeliverBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The batchId returned by POST /api/youtube/shorts/batch. */
                batchId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The redelivery is queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchRedeliveryQueued"];
                };
            };
            /** @description Invalid input; the message says what is accepted. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description No such batch for this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The batch is still running, or a delivery of its summary is queued or running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many redeliveries (at most 10 per minute and 100 per hour); see Retry-After. Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    getItemsPage: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page (opaque); leave out for the first page. */
                cursor?: string;
                /** @description Shorts per page, 1 to 500. */
                pageSize?: number;
            };
            header?: never;
            path: {
                /** @description The requestId of a shorts request. */
                requestId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the result. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemsPage"];
                };
            };
            /** @description Invalid input; the message says what is accepted. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description No such request for this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The request is still processing, failed, or was answered synchronously without store: true. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The result is past its retention period (RESULT_EXPIRED). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    listRejections: {
        parameters: {
            query?: {
                /** @description UTC days to cover, today included. */
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Refused calls per UTC day, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rejections"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The previous page's nextCursor, unchanged (opaque). Omit for the first page. */
                cursor?: string;
                outcome?: "delivered" | "failed" | "gone";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Delivery attempts, newest first, one page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryLogPage"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendTestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestRequest"];
            };
        };
        responses: {
            /** @description The attempt's outcome (a failed delivery is still a 200: the test ran). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestResult"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many test events (at most 10 per minute); see Retry-After. Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready: every configured store answers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        checks: {
                            database: {
                                status: "ok" | "down" | "disabled";
                            };
                            queue: {
                                status: "ok" | "down" | "disabled";
                            };
                            redis: {
                                status: "ok" | "down" | "disabled";
                            };
                        };
                        upstream?: {
                            /** @description ok: every key usable; degraded: some keys resting or rejected; exhausted: no key has quota left today (stale results are served); down: every key rejected. */
                            status: "ok" | "degraded" | "exhausted" | "down";
                            keys: {
                                active: number;
                                exhausted: number;
                                invalid: number;
                            };
                        };
                        sources?: {
                            source: "data-api" | "innertube";
                            /** @description ok: most recent calls succeeded (or none were made); failing: most of the last 15 minutes' calls failed; paused: a breaker pauses its calls. Not decisive for readiness. */
                            status: "ok" | "failing" | "paused";
                        }[];
                        /** @description Sent with an operator credential (OPERATOR_TOKEN or an operator session) only. */
                        sourceDetails?: components["schemas"]["SourceHealth"][];
                        setup?: {
                            /** @description NO_DATA_API_KEY: the source needs a Data API key and none is set; DATA_API_KEYS_REJECTED: YouTube rejected a configured key; NO_USERS: nobody can sign in yet. Not decisive for readiness. */
                            warnings: ("NO_DATA_API_KEY" | "DATA_API_KEYS_REJECTED" | "NO_USERS")[];
                        };
                    };
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not ready: a store is down (named in checks). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "unavailable";
                        checks: {
                            database: {
                                status: "ok" | "down" | "disabled";
                            };
                            queue: {
                                status: "ok" | "down" | "disabled";
                            };
                            redis: {
                                status: "ok" | "down" | "disabled";
                            };
                        };
                        upstream?: {
                            /** @description ok: every key usable; degraded: some keys resting or rejected; exhausted: no key has quota left today (stale results are served); down: every key rejected. */
                            status: "ok" | "degraded" | "exhausted" | "down";
                            keys: {
                                active: number;
                                exhausted: number;
                                invalid: number;
                            };
                        };
                        sources?: {
                            source: "data-api" | "innertube";
                            /** @description ok: most recent calls succeeded (or none were made); failing: most of the last 15 minutes' calls failed; paused: a breaker pauses its calls. Not decisive for readiness. */
                            status: "ok" | "failing" | "paused";
                        }[];
                        /** @description Sent with an operator credential (OPERATOR_TOKEN or an operator session) only. */
                        sourceDetails?: components["schemas"]["SourceHealth"][];
                        setup?: {
                            /** @description NO_DATA_API_KEY: the source needs a Data API key and none is set; DATA_API_KEYS_REJECTED: YouTube rejected a configured key; NO_USERS: nobody can sign in yet. Not decisive for readiness. */
                            warnings: ("NO_DATA_API_KEY" | "DATA_API_KEYS_REJECTED" | "NO_USERS")[];
                        };
                    };
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description METRICS_TOKEN is set and was not sent. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorWhoAmI: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The operator. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        actor: string;
                        accountId: string | null;
                        via: "token" | "session";
                    };
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorListUsers: {
        parameters: {
            query?: {
                search?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users and the total matching. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        users: components["schemas"]["User"][];
                        total: number;
                    };
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorCreateUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                    credits?: number;
                    role?: components["schemas"]["Role"];
                };
            };
        };
        responses: {
            /** @description The new user. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorGetUser: {
        parameters: {
            query?: {
                days?: number;
            };
            header?: never;
            path: {
                /** @description The user's id (or email). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user, totals and usage per day. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: components["schemas"]["User"];
                        totals: {
                            totalRequests: number;
                            totalCreditsCharged: number;
                        };
                        usage: components["schemas"]["UsageDay"][];
                    };
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorListUserLedger: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The user's id (or email). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ledger entries, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: components["schemas"]["LedgerEntry"][];
                    };
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorListUserRequests: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The user's id (or email). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Requests, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        requests: components["schemas"]["RequestSummary"][];
                    };
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorListUserDeliveries: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The user's id (or email). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Delivery attempts, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: components["schemas"]["UserDelivery"][];
                    };
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorDisableUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's id (or email). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The user after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorEnableUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's id (or email). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The user after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorSetUserRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's id (or email). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    role: components["schemas"]["Role"];
                };
            };
        };
        responses: {
            /** @description The user after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorChangeUserCredits: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended call (a UUID), kept per account: a retry with the same key and body within 24 h answers what the first call answered (status, body, requestId) with Idempotent-Replayed: true and charges nothing more; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, and a retry while the first call still runs is 409 IDEMPOTENCY_IN_PROGRESS with Retry-After.
                 * @example 5f0c6b1e-3c1d-4a57-9a63-0f3a8d2c9b71
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The user's id (or email). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    direction: "grant" | "deduct";
                    amount: number;
                    reason: string;
                };
            };
        };
        responses: {
            /** @description The user after the change. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. Or: A call with this Idempotency-Key is still running; see Retry-After. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorSetUserLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's id (or email). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    perMinute?: number | null;
                    perHour?: number | null;
                    perDay?: number | null;
                };
            };
        };
        responses: {
            /** @description The user after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorResetUserLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's id (or email). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorListAudit: {
        parameters: {
            query?: {
                userId?: string;
                limit?: number;
                /** @description Entries older than this id (paging). */
                before?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Audit entries, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: components["schemas"]["AuditEntry"][];
                    };
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorListInvitations: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Invitations, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        invitations: components["schemas"]["Invitation"][];
                    };
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorCreateInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    credits?: number;
                    role?: components["schemas"]["Role"];
                };
            };
        };
        responses: {
            /** @description The invitation and its one-time link. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedInvitation"];
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorRunDoctor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The findings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DoctorReport"];
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorGetSetup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The start-up notes, warnings first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        notes: {
                            code: string;
                            level: "info" | "warn";
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    operatorGetQuota: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The source and each key's quota today. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        source: string;
                        /** Format: date-time */
                        resetsAt: string;
                        keys: {
                            /** @description "<index>:<8 hex of SHA-256>": never the key itself. */
                            label: string;
                            /** @description The Data API quota day (America/Los_Angeles date). */
                            quotaDay: string;
                            unitsUsed: number;
                            budget: number;
                            unitsRemaining: number;
                            state: "active" | "exhausted" | "invalid";
                            invalidReason?: string;
                        }[];
                        /** @description Units spent today on requests that then failed on the service's own side (its database or Redis unavailable, an unexpected error): its loss, counted against no account's allowance. */
                        lostUnits: number;
                        sources: components["schemas"]["SourceHealth"][];
                    };
                };
            };
            /** @description Invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an operator (customers, API keys and disabled accounts are refused). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSignupMode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sign-up mode. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignupInfo"];
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signUp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Taken: sign in with this email and password. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignupAccepted"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Sign-up is not open. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The invitation is unknown, used or expired. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many sign-ups from this address. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description The account exists; signed in. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Sign-up is not open. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The invitation is unknown, used or expired. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An account with this email exists. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many sign-ups from this address. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    completeSetup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The token of the setup link (…/dashboard/setup?token=…). */
                    token: string;
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description The first operator exists; signed in. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token is not the setup link’s. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The service has users already: it is set up. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPricing: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The price and timings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pricing"];
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWatches: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's watches, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchList"];
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    createWatch: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended call (a UUID), kept per account: a retry with the same key and body within 24 h answers what the first call answered (status, body, requestId) with Idempotent-Replayed: true and charges nothing more; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, and a retry while the first call still runs is 409 IDEMPOTENCY_IN_PROGRESS with Retry-After.
                 * @example 5f0c6b1e-3c1d-4a57-9a63-0f3a8d2c9b71
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWatch"];
            };
        };
        responses: {
            /** @description The watch, with its baseline recorded (Location: /api/youtube/watches/{watchId}). */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Watch"];
                };
            };
            /** @description Invalid body, unrecognised channel address, unsafe webhookUrl or an interval below the minimum. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The available credits cannot pay for creating the watch. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description No channel at that address. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The account has its maximum number of watches. Or: A call with this Idempotency-Key is still running; see Retry-After. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Rate limit exceeded, or the daily allowance of unpaid upstream work is spent. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The video platform failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Every platform key is out of quota, the platform throttles, or a backing store is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The video platform did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    getWatch: {
        parameters: {
            query?: {
                /** @description Checks and events to include. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The id of a watch. */
                watchId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The watch with its latest checks and events, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchDetail"];
                };
            };
            /** @description Malformed watch id or limit. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description No such watch on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    deleteWatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of a watch. */
                watchId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The watch as it was before it was deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Watch"];
                };
            };
            /** @description Malformed watch id. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description No such watch on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    updateWatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of a watch. */
                watchId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWatch"];
            };
        };
        responses: {
            /** @description The watch after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Watch"];
                };
            };
            /** @description Malformed watch id, invalid body, unsafe webhookUrl or an interval below the minimum. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description No such watch on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The body is not sent as application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description status "active" (a resume, checked at once) counts as a metered call: past the minute, hour or day limit, 429 with Retry-After and the RateLimit headers. Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    checkWatch: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended call (a UUID), kept per account: a retry with the same key and body within 24 h answers what the first call answered (status, body, requestId) with Idempotent-Replayed: true and charges nothing more; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, and a retry while the first call still runs is 409 IDEMPOTENCY_IN_PROGRESS with Retry-After.
                 * @example 5f0c6b1e-3c1d-4a57-9a63-0f3a8d2c9b71
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The id of a watch. */
                watchId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The check is queued; it appears in the watch's checks once it has run. */
            202: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchCheckQueued"];
                };
            };
            /** @description Malformed watch id. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description No such watch on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The watch is paused. Or: A call with this Idempotency-Key is still running; see Retry-After. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Rate limit exceeded. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    getVideoStats: {
        parameters: {
            query?: {
                /** @description Points at or after this time (default: 30 days before to). */
                from?: string;
                /** @description Points at or before this time (default: now). */
                to?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The Short's video id (11 characters).
                 * @example dQw4w9WgXcQ
                 */
                videoId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Short's points and growth. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoStats"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Nothing was ever read of this video. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    getChannelStats: {
        parameters: {
            query?: {
                /** @description The window movers are ranked by. */
                window?: "24h" | "7d" | "30d";
                /** @description At most this many movers. */
                limit?: number;
            };
            header?: never;
            path: {
                /**
                 * @description The channel's id (UC…).
                 * @example UCuAXFkgsw1L7xaCfnd5JJOw
                 */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel's movers and counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelStats"];
                };
            };
            /** @description Invalid input: the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description The credential may not use this resource (disabled account, a key without the scope, or an API key on a session-only route). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A path parameter is over 800 characters. */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). Or: Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute"). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description Unexpected server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
            /** @description A backing store (database, Redis) is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Failure"];
                };
            };
        };
    };
    mcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The JSON-RPC response. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "jsonrpc": "2.0",
                     *       "id": 2,
                     *       "result": {
                     *         "content": [
                     *           {
                     *             "type": "text",
                     *             "text": "{\"credits\":{\"balance\":97,\"reserved\":0,\"available\":97}}"
                     *           }
                     *         ],
                     *         "structuredContent": {
                     *           "credits": {
                     *             "balance": 97,
                     *             "reserved": 0,
                     *             "available": 97
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {unknown} */
                        jsonrpc: "2.0";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A notification or response from the client, accepted; no body. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not a valid JSON-RPC message (a JSON-RPC error object), or input every route refuses (the error body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "jsonrpc": "2.0",
                     *       "id": null,
                     *       "error": {
                     *         "code": -32700,
                     *         "message": "Parse error: Invalid JSON"
                     *       }
                     *     }
                     */
                    "application/json": ({
                        /** @enum {unknown} */
                        jsonrpc: "2.0";
                    } & {
                        [key: string]: unknown;
                    }) | components["schemas"]["Error"];
                };
            };
            /** @description No credential, or not a valid one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept must list application/json and text/event-stream. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "jsonrpc": "2.0",
                     *       "id": null,
                     *       "error": {
                     *         "code": -32000,
                     *         "message": "Not Acceptable: Client must accept both application/json and text/event-stream"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {unknown} */
                        jsonrpc: "2.0";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The body is over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLlmsTxt: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Markdown. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/markdown": string;
                };
            };
            /** @description The query string holds a NUL character or an unpaired surrogate. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    shortsResultEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShortsWebhookPayload"];
            };
        };
        responses: {
            /** @description Any 2xx: delivered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: stop sending this webhook. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    shortsResultThinEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShortsThinWebhookPayload"];
            };
        };
        responses: {
            /** @description Any 2xx: delivered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: stop sending this webhook. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    batchCompletedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchWebhookPayload"];
            };
        };
        responses: {
            /** @description Any 2xx: delivered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: stop sending this webhook. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    shortsCreatedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShortsCreatedPayload"];
            };
        };
        responses: {
            /** @description Any 2xx: delivered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: stop sending this webhook. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    shortsGrowthEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShortsGrowthPayload"];
            };
        };
        responses: {
            /** @description Any 2xx: delivered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: stop sending this webhook. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    watchPausedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WatchPausedPayload"];
            };
        };
        responses: {
            /** @description Any 2xx: delivered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: stop sending this webhook. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    watchResumedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WatchResumedPayload"];
            };
        };
        responses: {
            /** @description Any 2xx: delivered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: stop sending this webhook. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    creditsLowEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreditsLowPayload"];
            };
        };
        responses: {
            /** @description Any 2xx: delivered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: stop sending this webhook. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookDestinationPausedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DestinationPausedPayload"];
            };
        };
        responses: {
            /** @description Any 2xx: delivered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: stop sending this webhook. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookTestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestPayload"];
            };
        };
        responses: {
            /** @description Any 2xx: delivered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: stop sending this webhook. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
