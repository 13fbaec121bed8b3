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
        /** Log in with email and password; returns a session JWT for the dashboard. */
        post: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                            user: {
                                id: string;
                                email: string;
                            };
                            /** Format: date-time */
                            expiresAt: string;
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Wrong email or password. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Too many failed attempts for this email from this address (or from this address overall); see Retry-After. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Too many logins are being checked at once, or a backing store is down; see Retry-After. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** List the account's API keys (never their secrets). */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                /** @description The first characters of the key, to recognise it. */
                                prefix: string;
                                /** Format: date-time */
                                createdAt: string;
                                lastUsedAt: string | null;
                                revokedAt: string | null;
                                /** @description What the key may do: shorts:write (Create shorts requests and redeliver webhooks (costs credits).); shorts:read (List shorts requests and read their results.); account:read (Read the account: balance, limits, usage and ledger.) */
                                scopes: string[];
                            }[];
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource (disabled account, or an API key on a session-only route). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an API key. The secret is in this response only; store it now. */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A descriptive name, e.g. "production backend". */
                        name: string;
                        /** @description What the key may do; every scope when omitted. */
                        scopes?: ("shorts:write" | "shorts:read" | "account:read")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @description The first characters of the key, to recognise it. */
                            prefix: string;
                            /** Format: date-time */
                            createdAt: string;
                            lastUsedAt: string | null;
                            revokedAt: string | null;
                            /** @description What the key may do: shorts:write (Create shorts requests and redeliver webhooks (costs credits).); shorts:read (List shorts requests and read their results.); account:read (Read the account: balance, limits, usage and ledger.) */
                            scopes: string[];
                            /** @description The secret. Shown once. */
                            key: string;
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource (disabled account, or an API key on a session-only route). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Revoke an API key. Effective on every instance within a second. */
        delete: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @description The first characters of the key, to recognise it. */
                            prefix: string;
                            /** Format: date-time */
                            createdAt: string;
                            lastUsedAt: string | null;
                            revokedAt: string | null;
                            /** @description What the key may do: shorts:write (Create shorts requests and redeliver webhooks (costs credits).); shorts:read (List shorts requests and read their results.); account:read (Read the account: balance, limits, usage and ledger.) */
                            scopes: string[];
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource (disabled account, or an API key on a session-only route). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** The caller's account: credits, rate limits and usage. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            email: string;
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
                            rateLimits: {
                                perMinute: number;
                                perHour: number;
                                perDay: number;
                            };
                            usage: {
                                /** @description Requests counted in the current minute window. */
                                minute: number;
                                hour: number;
                                day: number;
                                totalRequests: number;
                                totalCreditsCharged: number;
                            };
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource (disabled account, or an API key on a session-only route). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Requests, items and credits per UTC day, oldest first, every day present. */
        get: {
            parameters: {
                query: {
                    days: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            days: {
                                date: string;
                                requests: number;
                                items: number;
                                credits: number;
                            }[];
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource (disabled account, or an API key on a session-only route). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
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
        /** Credit ledger (grants and charges), newest first. */
        get: {
            parameters: {
                query: {
                    limit: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: {
                                id: number;
                                /** @description deduct: taken back by an operator (note says why). */
                                kind: "grant" | "charge" | "deduct";
                                amount: number;
                                balanceAfter: number;
                                requestId: string | null;
                                note: string | null;
                                /** Format: date-time */
                                createdAt: string;
                            }[];
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource (disabled account, or an API key on a session-only route). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** The webhook signing secrets that currently sign (the newest first). Dashboard session only. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            secrets: {
                                secret: string;
                                /** Format: date-time */
                                createdAt: string;
                                expiresAt: string | null;
                            }[];
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource (disabled account, or an API key on a session-only route). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Create a new signing secret; the one it replaces keeps signing until previousExpiresAt, older ones stop at once (at most two sign). Rate limited per account. */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            secret: string;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            previousExpiresAt: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource (disabled account, or an API key on a session-only route). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Too many rotations this hour; see Retry-After. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** The caller's recent shorts requests, newest first. */
        get: {
            parameters: {
                query: {
                    limit: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
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
                /** @description Error body for authentication, account and key endpoints. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource (disabled account, or an API key on a session-only route). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * List a channel's Shorts with the channel's details.
         * @description Without webhookUrl the result is in the response (200). With webhookUrl the request is accepted (202) and the result is POSTed to the URL later, signed per Standard Webhooks. Price: max(1, ceil(shorts / 50) × 1, ceil(upstream units / 4)) credits; nothing is charged on failure. Credits are reserved before the platform is read and the work is capped at what they pay for: when the first playlist page shows the channel costs more than the available credits, the answer is 402 quoting the price (use limit to ask for fewer). Failed lookups come out of a daily allowance of 50 unpaid upstream units per account (then 429 QUOTA_ALLOWANCE_EXHAUSTED). When every platform key is spent for the day, earlier results are served with stale:true; otherwise 503 with Retry-After. At most 5000 shorts per request (newest first); when more exist the body says truncated:true. Fields the platform does not send are omitted, never null. sort=oldest|popular and the duration filters read the whole window (up to MAX_SHORTS_PER_REQUEST) before limit applies: the price follows the shorts read, not the shorts returned (a filter never lowers it). Every short carries contentDetails.duration (ISO 8601) and durationSeconds when the platform sends a duration. store: true keeps a synchronous result for paged reading (GET /api/youtube/shorts/{requestId}/items); webhook results are always kept.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "channelUrl": "https://www.youtube.com/@demo",
                     *       "sort": "popular",
                     *       "limit": 10,
                     *       "maxDurationSeconds": 60
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: uri
                         * @description Channel address: /@handle, /channel/UC…, /user/name, /c/name or /name on youtube.com (www., m., music.).
                         */
                        channelUrl: string;
                        /** @description Unix time in milliseconds; only shorts published at or after it are returned. */
                        oldestDate?: number;
                        /** @description At most this many shorts, applied after sort and duration filters. With sort=newest and no duration filter reading stops as soon as they are listed: fewer upstream calls, fewer credits. */
                        limit?: number;
                        /** @description When every Data API key is spent for the day. stale-ok (default): an earlier exact copy (stale:true) if one exists, else current keyless data with approximate counts (source:"innertube", approximateFields listed). exact: an earlier exact copy if one exists, else 503; never approximate values. */
                        freshness?: "stale-ok" | "exact";
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
                        /** @description Synchronous requests: keep the whole result for GET /api/youtube/shorts/{requestId}/items (paged) for RESULT_RETENTION_DAYS. Webhook requests are always kept. */
                        store?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            requestId: string;
                            data: {
                                channel: components["schemas"]["Channel"];
                                /** @description In the order asked for by sort (default newest first). */
                                shorts: components["schemas"]["Short"][];
                            };
                            itemCount: number;
                            creditsCharged: number;
                            /** @description True when more matching shorts exist than were returned: beyond MAX_SHORTS_PER_REQUEST, or beyond what the available credits paid to read (message says which). The newest are returned. A `limit` reached is not truncation. */
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
                            /** @description Present when truncated or stale: explains what was left out or how old the data is. */
                            message?: string;
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            requestId: string;
                            /** @enum {string} */
                            status: "processing";
                            message: string;
                        };
                    };
                };
                /** @description Invalid body, unrecognised channel address or unsafe webhookUrl. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The available credits cannot cover the price (quoted in the message). */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No channel at that address. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED; see Retry-After and RateLimit headers), or the account's daily allowance of unpaid upstream work is spent (QUOTA_ALLOWANCE_EXHAUSTED; Retry-After at midnight America/Los_Angeles). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The video platform failed or rejected the service's credentials. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Every platform key is out of quota for today and no earlier result exists (UPSTREAM_QUOTA_EXHAUSTED, Retry-After at the next quota day), the platform throttles (UPSTREAM_RATE_LIMITED), or a backing store is down. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The video platform did not answer in time. */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Status and result of one request, with its webhook delivery attempts. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The requestId of a shorts request. */
                    requestId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            requestId: string;
                            /** Format: date-time */
                            createdAt: string;
                            completedAt: string | null;
                            channelUrl: string;
                            oldestDate: number | null;
                            limit: number | null;
                            webhookUrl: string | null;
                            mode: "sync" | "webhook";
                            status: "processing" | "completed" | "failed";
                            itemCount: number | null;
                            creditsCharged: number | null;
                            error: string | null;
                            /** @description Sort and duration filters, when the request asked for any. */
                            options?: {
                                /**
                                 * @description newest (default) | oldest | popular (exact viewCount, ties newest first). oldest and popular read the whole window (up to MAX_SHORTS_PER_REQUEST) and are priced by what was read; limit applies after sorting.
                                 * @enum {unknown}
                                 */
                                sort?: "newest" | "oldest" | "popular";
                                minDurationSeconds?: number;
                                maxDurationSeconds?: number;
                            };
                            /** @description The batch this request belongs to. */
                            batchId?: string;
                            /** @description Webhook requests: the delivered body. Synchronous requests: a summary (results are not retained). */
                            result: unknown;
                            deliveries: components["schemas"]["DeliveryAttempt"][];
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource (disabled account, or an API key on a session-only route). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Deliver a settled webhook request again now (same webhook-id). 409 DELIVERY_IN_PROGRESS while an attempt is queued or running. */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The requestId of a shorts request. */
                    requestId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            requestId: string;
                            /** @enum {string} */
                            status: "queued";
                            attempt: number;
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource (disabled account, or an API key on a session-only route). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The result is past RESULT_RETENTION_DAYS. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        get?: never;
        put?: never;
        /**
         * Submit up to 50 shorts requests at once, each answered by webhook.
         * @description Each item becomes an ordinary webhook request (its own requestId, result, charge, credit reservation and shorts.completed / shorts.failed webhook to webhookUrl). When every item has settled, one batch.completed webhook (see webhooks) summarises the batch; GET /api/youtube/shorts/batch/{batchId} shows progress. Acceptance is all or nothing: every item reserves at least 1 credit when accepted; when the available credits cannot reserve every item the whole batch is refused with 402 and nothing is recorded or charged. A batch counts as one call against the rate limits.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
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
                    "application/json": {
                        /** @description 1 to 50 requests; each becomes an ordinary webhook request with its own requestId, result, charge and webhook. */
                        items: components["schemas"]["BatchItem"][];
                        /**
                         * Format: uri
                         * @description Receives every item's shorts.completed / shorts.failed webhook and, once all have settled, one batch.completed summary.
                         */
                        webhookUrl: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
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
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            batchId: string;
                            /** @enum {string} */
                            status: "processing";
                            /** @description One requestId per item, in the order sent. */
                            items: {
                                requestId: string;
                                channelUrl: string;
                            }[];
                            message: string;
                        };
                    };
                };
                /** @description Invalid input; the message says what is accepted. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The available credits cannot reserve every item; nothing was accepted. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Rate limit exceeded (see Retry-After and RateLimit headers). */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Progress of a batch: counts, each item's status and charge, and the summary webhook's delivery attempts. */
        get: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
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
                    };
                };
                /** @description Invalid input; the message says what is accepted. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such batch for this account. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
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
         */
        get: {
            parameters: {
                query: {
                    /** @description nextCursor of the previous page (opaque); leave out for the first page. */
                    cursor?: string;
                    /** @description Shorts per page, 1 to 500. */
                    pageSize: number;
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
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
                    };
                };
                /** @description Invalid input; the message says what is accepted. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such request for this account. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The request is still processing, failed, or was answered synchronously without store: true. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The result is past its retention period (RESULT_EXPIRED). */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store (database, Redis) is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
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
        /** Liveness: the process is up. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
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
            };
        };
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
        /** Readiness: database, queue and Redis (when configured) reachable. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
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
                        };
                    };
                };
                /** @description Default Response */
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
                        };
                    };
                };
            };
        };
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
        /** Prometheus metrics. When the operator sets METRICS_TOKEN, send it as "Authorization: Bearer <METRICS_TOKEN>". */
        get: {
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
                        "application/json": string;
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Who the operator API sees: an operator session or the operator token. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
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
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** List users, newest first; search matches part of the email or the exact id. */
        get: {
            parameters: {
                query: {
                    search?: string;
                    limit: number;
                    offset: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            users: {
                                /** Format: uuid */
                                id: string;
                                email: string;
                                role: "customer" | "operator";
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
                                rateLimits: {
                                    perMinute: number;
                                    perHour: number;
                                    perDay: number;
                                };
                            }[];
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
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a user (customer or operator) with an optional starting balance. */
        post: {
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
                        role?: "customer" | "operator";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            role: "customer" | "operator";
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
                            rateLimits: {
                                perMinute: number;
                                perHour: number;
                                perDay: number;
                            };
                        };
                    };
                };
                /** @description Invalid input. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** One user with totals and usage per UTC day. */
        get: {
            parameters: {
                query: {
                    days: number;
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: {
                                /** Format: uuid */
                                id: string;
                                email: string;
                                role: "customer" | "operator";
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
                                rateLimits: {
                                    perMinute: number;
                                    perHour: number;
                                    perDay: number;
                                };
                            };
                            totals: {
                                totalRequests: number;
                                totalCreditsCharged: number;
                            };
                            usage: {
                                date: string;
                                requests: number;
                                items: number;
                                credits: number;
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
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** A user's credit ledger, newest first. */
        get: {
            parameters: {
                query: {
                    limit: number;
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: {
                                id: number;
                                kind: "grant" | "charge" | "deduct";
                                amount: number;
                                balanceAfter: number;
                                requestId: string | null;
                                note: string | null;
                                /** Format: date-time */
                                createdAt: string;
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
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** A user's shorts requests, newest first. */
        get: {
            parameters: {
                query: {
                    limit: number;
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            requests: {
                                requestId: string;
                                /** Format: date-time */
                                createdAt: string;
                                completedAt: string | null;
                                channelUrl: string;
                                oldestDate: number | null;
                                webhookUrl: string | null;
                                mode: "sync" | "webhook";
                                status: "processing" | "completed" | "failed";
                                itemCount: number | null;
                                creditsCharged: number | null;
                                error: string | null;
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
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** A user's webhook delivery attempts, newest first. */
        get: {
            parameters: {
                query: {
                    limit: number;
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deliveries: {
                                id: number;
                                requestId: string;
                                webhookId: string;
                                attempt: number;
                                /** Format: date-time */
                                startedAt: string;
                                statusCode: number | null;
                                latencyMs: number | null;
                                outcome: "delivered" | "failed" | "gone";
                                error: string | null;
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
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Disable a user: every credential of theirs is refused (403) within a second. */
        post: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            role: "customer" | "operator";
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
                            rateLimits: {
                                perMinute: number;
                                perHour: number;
                                perDay: number;
                            };
                        };
                    };
                };
                /** @description Invalid input. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Enable a disabled user again. */
        post: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            role: "customer" | "operator";
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
                            rateLimits: {
                                perMinute: number;
                                perHour: number;
                                perDay: number;
                            };
                        };
                    };
                };
                /** @description Invalid input. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Make a user an operator, or a customer again. */
        post: {
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
                        role: "customer" | "operator";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            role: "customer" | "operator";
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
                            rateLimits: {
                                perMinute: number;
                                perHour: number;
                                perDay: number;
                            };
                        };
                    };
                };
                /** @description Invalid input. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Grant or deduct credits with a reason (a ledger entry). A deduction never takes the balance below 0 (409, nothing changed). */
        post: {
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
                        direction: "grant" | "deduct";
                        amount: number;
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            role: "customer" | "operator";
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
                            rateLimits: {
                                perMinute: number;
                                perHour: number;
                                perDay: number;
                            };
                        };
                    };
                };
                /** @description Invalid input. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Set a user's rate limits; a window given as null goes back to the default, one left out stays as it is. */
        put: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            role: "customer" | "operator";
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
                            rateLimits: {
                                perMinute: number;
                                perHour: number;
                                perDay: number;
                            };
                        };
                    };
                };
                /** @description Invalid input. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Reset a user's rate limits to the defaults. */
        delete: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            role: "customer" | "operator";
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
                            rateLimits: {
                                perMinute: number;
                                perHour: number;
                                perDay: number;
                            };
                        };
                    };
                };
                /** @description Invalid input. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** The audit log of operator actions, newest first (optionally about one user). */
        get: {
            parameters: {
                query: {
                    userId?: string;
                    limit: number;
                    /** @description Entries older than this id (paging). */
                    before?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: {
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
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Invitations, newest first (never their tokens). */
        get: {
            parameters: {
                query: {
                    limit: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            invitations: {
                                id: string;
                                email: string;
                                credits: number;
                                role: "customer" | "operator";
                                createdBy: string;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                expiresAt: string;
                                acceptedAt: string | null;
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
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Invite an email (SIGNUP=invite or open): returns a one-time link that sets the password. Send it to the person; it is shown once. */
        post: {
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
                        role?: "customer" | "operator";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            email: string;
                            credits: number;
                            role: "customer" | "operator";
                            createdBy: string;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            expiresAt: string;
                            acceptedAt: string | null;
                            token: string;
                            link: string;
                        };
                    };
                };
                /** @description Invalid input. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Check the data's invariants (balances, charges, stuck requests, queue, lock); ok=false on a breach. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ok: boolean;
                            /** Format: date-time */
                            checkedAt: string;
                            findings: {
                                check: string;
                                severity: "ok" | "warn" | "breach";
                                summary: string;
                                details: string[];
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
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Upstream quota per YouTube Data API key today (the pool shared by every instance), and the source in use. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
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
                        };
                    };
                };
                /** @description Invalid input. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid or expired credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Not an operator (customers, API keys and disabled accounts are refused). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The action conflicts with the current state (e.g. deducting below 0); nothing was changed. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** How new users get an account here: off (an operator creates them), invite, or open. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            mode: "off" | "invite" | "open";
                            startingCredits: number;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an account (SIGNUP=open) with the configured starting credits; returns a session. */
        post: {
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
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                            user: {
                                id: string;
                                email: string;
                            };
                            /** Format: date-time */
                            expiresAt: string;
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Sign-up is not open. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The invitation is unknown, used or expired. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description An account with this email exists. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Too many sign-ups from this address. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Accept an invitation: set the password, get the account and a session. The link works once. */
        post: {
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
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                            user: {
                                id: string;
                                email: string;
                            };
                            /** Format: date-time */
                            expiresAt: string;
                        };
                    };
                };
                /** @description Error body for authentication, account and key endpoints. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Sign-up is not open. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The invitation is unknown, used or expired. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description An account with this email exists. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Too many sign-ups from this address. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED. */
                            error: string;
                            /** @description What went wrong and what to do about it. */
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** The caller's watches, oldest first. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            watches: components["schemas"]["Watch"][];
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Watch a channel: its new Shorts are POSTed to webhookUrl as shorts.created events.
         * @description Resolves the channel and records its current shorts as the baseline (they are never reported), then checks it every intervalSeconds (at least 900) and, with PUBLIC_BASE_URL set, as soon as YouTube's WebSub hub announces an upload. A check reads only the newest page of the channel's Shorts: about 1 upstream unit when nothing is new, 2 when something is. Price: units are paid in advance, 1 credit per 4 units; reported shorts cost 1 credit(s) per started block of 50. A watch whose account cannot pay is paused (watch.paused) and resumed when credits return (watch.resumed). At most 20 watches per account. See docs/watches.md.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "channelUrl": "https://www.youtube.com/@demo",
                     *       "webhookUrl": "https://example.com/hooks/shorts",
                     *       "intervalSeconds": 900
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: uri
                         * @description Channel address in any form accepted by POST /api/youtube/shorts.
                         */
                        channelUrl: string;
                        /**
                         * Format: uri
                         * @description Receives shorts.created (new shorts), watch.paused and watch.resumed events, signed per Standard Webhooks.
                         */
                        webhookUrl: string;
                        /** @description Seconds between scheduled checks; at least WATCH_MIN_INTERVAL_SECONDS (default 900, also the default interval). */
                        intervalSeconds?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
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
                            pausedReason: ("user" | "credits") | null;
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
                            lastError: string | null;
                            /** Format: date-time */
                            createdAt: string;
                        };
                    };
                };
                /** @description Invalid body, unrecognised channel address, unsafe webhookUrl or an interval below the minimum. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The available credits cannot pay for creating the watch. */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No channel at that address. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The account has its maximum number of watches. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Rate limit exceeded, or the daily allowance of unpaid upstream work is spent. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The video platform failed. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The video platform did not answer in time. */
                504: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** One watch, with its latest checks and events (and their delivery state). */
        get: {
            parameters: {
                query: {
                    /** @description Checks and events to include. */
                    limit: number;
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            watch: components["schemas"]["Watch"];
                            /** @description The newest checks, newest first. */
                            checks: components["schemas"]["WatchCheck"][];
                            /** @description The newest events, newest first. */
                            events: components["schemas"]["WatchEvent"][];
                        };
                    };
                };
                /** @description Malformed watch id. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such watch. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Stop watching; answers the watch as it was. Events already recorded are still delivered. */
        delete: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
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
                            pausedReason: ("user" | "credits") | null;
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
                            lastError: string | null;
                            /** Format: date-time */
                            createdAt: string;
                        };
                    };
                };
                /** @description Malformed watch id. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such watch. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a watch's webhookUrl or interval, pause it or resume it. */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The id of a watch. */
                    watchId: string;
                };
                cookie?: never;
            };
            /** @description The fields to change; an empty body changes nothing. */
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: uri */
                        webhookUrl?: string;
                        /** @description At least WATCH_MIN_INTERVAL_SECONDS. */
                        intervalSeconds?: number;
                        /** @description paused: no checks until set to active again (then checked at once). */
                        status?: "active" | "paused";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
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
                            pausedReason: ("user" | "credits") | null;
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
                            lastError: string | null;
                            /** Format: date-time */
                            createdAt: string;
                        };
                    };
                };
                /** @description Invalid body, unsafe webhookUrl or an interval below the minimum. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such watch. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
        /** Check a watch now (priced like any check); the schedule is unchanged. */
        post: {
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
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            watchId: string;
                            checkId: string;
                            /** @enum {string} */
                            status: "queued";
                        };
                    };
                };
                /** @description Malformed watch id. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Missing, invalid, expired or revoked credential. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The credential may not use this resource. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description No such watch. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description The watch is paused. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description Unexpected server error. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
                /** @description A backing store is unavailable. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
        };
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
         * The result of a shorts request that carried webhookUrl.
         * @description Signed per Standard Webhooks: headers webhook-id (msg_<requestId>, stable across retries), webhook-timestamp (Unix seconds) and webhook-signature (space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret). Answer 2xx to acknowledge; 410 stops retries; anything else (redirects included) is retried on the configured schedule, honouring Retry-After.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        type: "shorts.completed" | "shorts.failed";
                        /** Format: date-time */
                        timestamp: string;
                        data: {
                            /** @constant */
                            success: true;
                            requestId: string;
                            data: {
                                channel: {
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
                                /** @description In the order asked for by sort (default newest first). */
                                shorts: {
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
                                        /**
                                         * @description The video's duration as the platform gives it (ISO 8601, e.g. PT58S, PT1M5S, P0D).
                                         * @example PT58S
                                         */
                                        duration: string;
                                    };
                                    /** @description https://www.youtube.com/shorts/{id} */
                                    shortUrl: string;
                                    /**
                                     * @description contentDetails.duration in seconds (Shorts run up to 180 s since 2024-10-15); absent when the platform sends no duration.
                                     * @example 58
                                     */
                                    durationSeconds?: number;
                                }[];
                            };
                            itemCount: number;
                            creditsCharged: number;
                            /** @description True when more matching shorts exist than were returned: beyond MAX_SHORTS_PER_REQUEST, or beyond what the available credits paid to read (message says which). The newest are returned. A `limit` reached is not truncation. */
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
                            /** @description Present when truncated or stale: explains what was left out or how old the data is. */
                            message?: string;
                        } | {
                            /** @constant */
                            success: false;
                            /** @description Machine-readable code, e.g. CHANNEL_NOT_FOUND. */
                            error: string;
                            message: string;
                            requestId: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Delivered. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Stop sending this webhook. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
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
         * @description Signed like shorts.result, with webhook-id msg_<batchId>. Each item also sends its own shorts.completed / shorts.failed webhook; deliveries run in parallel, so this summary (queued once the last item has settled) may arrive before the last of them. data: batchId, status "completed", counts {total, processing (0), completed, failed}, creditsCharged (sum over items), and per item requestId, channelUrl, status, itemCount, creditsCharged and error (the code of a failed item).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
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
                    "application/json": {
                        /** @constant */
                        type: "batch.completed";
                        /**
                         * Format: date-time
                         * @description When the last item settled.
                         */
                        timestamp: string;
                        data: {
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
                            items: {
                                requestId: string;
                                channelUrl: string;
                                status: "processing" | "completed" | "failed";
                                itemCount: number | null;
                                creditsCharged: number | null;
                                error: string | null;
                            }[];
                        };
                    };
                };
            };
            responses: {
                /** @description Delivered. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Stop sending this webhook. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type components = {
    schemas: {
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
                /**
                 * @description The video's duration as the platform gives it (ISO 8601, e.g. PT58S, PT1M5S, P0D).
                 * @example PT58S
                 */
                duration: string;
            };
            /** @description https://www.youtube.com/shorts/{id} */
            shortUrl: string;
            /**
             * @description contentDetails.duration in seconds (Shorts run up to 180 s since 2024-10-15); absent when the platform sends no duration.
             * @example 58
             */
            durationSeconds?: number;
        };
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
            status: "processing" | "completed" | "failed";
            itemCount: number | null;
            creditsCharged: number | null;
            error: string | null;
            /** @description Sort and duration filters, when the request asked for any. */
            options?: {
                /**
                 * @description newest (default) | oldest | popular (exact viewCount, ties newest first). oldest and popular read the whole window (up to MAX_SHORTS_PER_REQUEST) and are priced by what was read; limit applies after sorting.
                 * @enum {unknown}
                 */
                sort?: "newest" | "oldest" | "popular";
                minDurationSeconds?: number;
                maxDurationSeconds?: number;
            };
            /** @description The batch this request belongs to. */
            batchId?: string;
        };
        DeliveryAttempt: {
            id: number;
            attempt: number;
            webhookId: string;
            /** Format: date-time */
            startedAt: string;
            statusCode: number | null;
            latencyMs: number | null;
            outcome: "delivered" | "failed" | "gone";
            error: string | null;
        };
        BatchItem: {
            /**
             * Format: uri
             * @description Channel address, as for POST /api/youtube/shorts.
             */
            channelUrl: string;
            /** @description Unix time in milliseconds; only shorts published at or after it. */
            oldestDate?: number;
            /** @description At most this many shorts (after sort and duration filters). */
            limit?: number;
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
            status: "processing" | "completed" | "failed";
            itemCount: number | null;
            creditsCharged: number | null;
            error: string | null;
        };
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
            pausedReason: ("user" | "credits") | null;
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
            lastError: string | null;
            /** Format: date-time */
            createdAt: string;
        };
        WatchCheck: {
            id: string;
            trigger: "create" | "schedule" | "push" | "manual";
            units: number;
            newShorts: number;
            creditsCharged: number;
            outcome: "ok" | "failed" | "paused";
            error: string | null;
            /** Format: date-time */
            createdAt: string;
        };
        WatchEvent: {
            /** @description evt_…; the webhook-id is msg_<id>. */
            id: string;
            /** @description shorts.created, watch.paused or watch.resumed. */
            type: string;
            /** Format: date-time */
            createdAt: string;
            /** @description The event's data, as delivered. */
            data: unknown;
            delivery: {
                attempts: number;
                outcome: string | null;
                statusCode: number | null;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
