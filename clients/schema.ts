/**
 * The ingest API's paths, operations and bodies as TypeScript types, generated from its OpenAPI document by
 * openapi-typescript. Do not edit: run `npm run openapi:client` after changing a route.
 */
export interface paths {
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
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
            'application/json': {
              /** @enum {string} */
              status: 'ok';
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/chat': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            prompt: string;
            project_slug?: string;
            workflow_id?: string;
            metadata?: {
              /** @enum {string} */
              model_tier?: 'free' | 'cheap' | 'frontier';
              template?: string;
              design?: string;
              deploy?: boolean;
              priority?: number;
            } & {
              [key: string]: unknown;
            };
            budget_usd?: number;
            scenario?: string;
            webhook?: {
              /**
               * Format: uri
               * @description https endpoint; http and loopback or private addresses only for hosts in WEBHOOK_ALLOW_HOSTS
               */
              url: string;
              /** @description event kinds to deliver; final and error when absent */
              events?: (
                | 'final'
                | 'error'
                | 'ask_user'
                | 'approval_requested'
                | 'human_task_assigned'
                | 'approval_decided'
                | 'reminder_sent'
                | 'escalated'
                | 'timed_out'
              )[];
            };
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
            'application/json': {
              job_id: string;
              workflow_id: string;
              prompt_id: string;
              /** @enum {string} */
              status: 'queued';
              /** @description the webhook subscribed, with the secret that signs its deliveries: shown this once, store it */
              webhook?: {
                url: string;
                events: string[];
                secret: string;
              };
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        402: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                /** @enum {string} */
                code: 'over_budget';
                message: string;
                budget: {
                  /** @enum {string} */
                  scope: 'user' | 'project' | 'org';
                  user_id?: string;
                  org_id?: string;
                  project_slug?: string;
                  budget_cents: number;
                  spent_cents: number;
                  remaining_cents: number;
                  period_start: string;
                };
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/projects': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
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
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              projects: {
                slug: string;
                name: string;
                created_at: string;
              }[];
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            name: string;
            slug?: string;
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
            'application/json': {
              slug: string;
              name: string;
              created_at: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/projects/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          slug: string;
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
            'application/json': {
              slug: string;
              name: string;
              created_at: string;
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/jobs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
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
            'application/json': {
              job_id: string;
              workflow_id: string;
              prompt_id: string;
              status: string;
              project_slug: string | null;
              model_tier: string | null;
              created_by: string;
              summary: string | null;
              error: unknown;
              created_at: string;
              updated_at: string;
              started_at: string | null;
              finished_at: string | null;
              cost_usd: number;
              reservations: {
                /** @description model calls reserved */
                calls: number;
                /** @description every call's estimate, reserved before the call */
                reserved_usd: number;
                /** @description what the settled calls cost: the ledger */
                settled_usd: number;
                /** @description reservations not yet settled or released */
                open_usd: number;
                /** @description reservations of calls that failed or were cancelled: charged nothing */
                released_usd: number;
              };
              pending: {
                /** @description open ask_user questions: answer with POST /v1/jobs/{id}/resume and the call_id */
                questions:
                  | {
                      call_id: string;
                      role: string;
                      question: string;
                      /** @description a budget decision (docs/budgets.md): the answers it takes, e.g. "raise by $2.00", "stop" */
                      choices?: string[];
                    }[]
                  | null;
                /** @description pending approvals: decide with POST /v1/approvals/{id}/decide */
                approvals: {
                  approval_id: string;
                  role: string;
                  action: string;
                  reason: string;
                  requested_at: string;
                }[];
              } | null;
              forked_from: {
                job_id: string;
                from_level_run_id: string | null;
                from_sequence: number | null;
                carried_level_ids: string[];
                prompt_patched: boolean;
                model_tier: string | null;
              } | null;
              forks: {
                job_id: string;
                from_level_run_id: string | null;
                created_at: string;
                compare: string;
              }[];
              queue: {
                org_id: string;
                project_slug: string | null;
                /** @enum {string} */
                state: 'queued' | 'running' | 'released';
                position: number | null;
                /** @enum {string|null} */
                reason: 'org_limit' | 'project_limit' | 'total_limit' | null;
                project_limit: number | null;
                enqueued_at: string;
                granted_at: string | null;
                released_at: string | null;
              } | null;
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/jobs/{id}/reservations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
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
            'application/json': {
              job_id: string;
              totals: {
                /** @description model calls reserved */
                calls: number;
                /** @description every call's estimate, reserved before the call */
                reserved_usd: number;
                /** @description what the settled calls cost: the ledger */
                settled_usd: number;
                /** @description reservations not yet settled or released */
                open_usd: number;
                /** @description reservations of calls that failed or were cancelled: charged nothing */
                released_usd: number;
              };
              /** @description oldest first, at most 500 */
              calls: {
                reservation_id: string;
                level_id: string;
                provider: string;
                model: string;
                /** @enum {string} */
                state: 'reserved' | 'settled' | 'released';
                reserved_usd: number;
                settled_usd: number | null;
                created_at: string;
                settled_at: string | null;
              }[];
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/jobs/{id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
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
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              job_id: string;
              /** @enum {string} */
              status: 'cancelled';
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/jobs/{id}/files': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          /** @description a level run of this job (the level_id of its level_finished event): the workspace as it stood after that level run */
          at?: string;
        };
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
            'application/json': {
              files: {
                path: string;
                sha256: string;
                size_bytes: number;
              }[];
              snapshot?: {
                level_run_id: string;
                manifest_sha256: string;
                file_count: number;
                total_bytes: number;
                created_at: string;
              };
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/jobs/{id}/files/{*}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          download?: 'true' | 'false';
          /** @description a level run of this job (the level_id of its level_finished event): the workspace as it stood after that level run */
          at?: string;
        };
        header?: never;
        path: {
          id: string;
          '*': string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description the file's bytes as the job wrote them: PNG, JPEG, GIF, WebP and AVIF under their image type, UTF-8 text as text/plain, anything else as application/octet-stream */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            '*/*': string;
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/jobs/{id}/fork': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description the fork point: { level_run_id } or { sequence } */
            from:
              | {
                  /** @description fork after this level run of the job (the level_id of its level_finished event); it and every level run before it are carried over */
                  level_run_id: string;
                }
              | {
                  /** @description fork after the last level run finished at or before this event sequence of the job (0: from the start) */
                  sequence: number;
                };
            /** @description the fork's prompt, replacing the source's for the level runs after the fork point */
            prompt_patch?: string;
            /**
             * @description the model tier of the fork's level runs after the fork point
             * @enum {string}
             */
            model_tier?: 'free' | 'cheap' | 'frontier';
            /** @description the fork's own cost ceiling in USD, instead of its source's (as POST /v1/chat's budget_usd: at most the deployment's maximum) */
            budget_usd?: number;
            /** @description as POST /v1/chat's metadata; model_tier at the top level wins over metadata.model_tier */
            metadata?: {
              /** @enum {string} */
              model_tier?: 'free' | 'cheap' | 'frontier';
              template?: string;
              design?: string;
              deploy?: boolean;
            } & {
              [key: string]: unknown;
            };
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
            'application/json': {
              /** @description the fork: a new job in the source job’s workflow */
              job_id: string;
              workflow_id: string;
              prompt_id: string;
              /** @enum {string} */
              status: 'queued';
              source_job_id: string;
              /** @description the fork point; null for a fork from the start */
              from_level_run_id: string | null;
              /** @description the source's level runs carried over, in the order they ran */
              carried_level_ids: string[];
              links: {
                job: string;
                stream: string;
                compare: string;
              };
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        402: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                /** @enum {string} */
                code: 'over_budget';
                message: string;
                budget: {
                  /** @enum {string} */
                  scope: 'user' | 'project' | 'org';
                  user_id?: string;
                  org_id?: string;
                  project_slug?: string;
                  budget_cents: number;
                  spent_cents: number;
                  remaining_cents: number;
                  period_start: string;
                };
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
                missing?: {
                  path: string;
                  sha256: string;
                  size_bytes: number;
                }[];
              };
            };
          };
        };
        /** @description Default Response */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/jobs/{a}/compare/{b}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          /** @description a level run of a: compare a's workspace as it stood then */
          a_at?: string;
          /** @description a level run of b: compare b's workspace as it stood then */
          b_at?: string;
        };
        header?: never;
        path: {
          a: string;
          b: string;
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
            'application/json': {
              a: {
                job_id: string;
                status: string;
                level_run_id: string | null;
                manifest_sha256: string | null;
                levels_cost_usd: number;
                levels_duration_ms: number;
                billed_cost_usd: number;
                forked_from: {
                  job_id: string;
                  level_run_id: string | null;
                } | null;
                carried_level_ids: string[];
              };
              b: {
                job_id: string;
                status: string;
                level_run_id: string | null;
                manifest_sha256: string | null;
                levels_cost_usd: number;
                levels_duration_ms: number;
                billed_cost_usd: number;
                forked_from: {
                  job_id: string;
                  level_run_id: string | null;
                } | null;
                carried_level_ids: string[];
              };
              /** @enum {string} */
              relation: 'b_forked_from_a' | 'a_forked_from_b' | 'same_source' | 'same_job' | 'unrelated';
              identical_workspaces: boolean;
              /** @description the files that differ between a's workspace and b's, by path; `added` is in b only */
              files: {
                path: string;
                /** @enum {string} */
                change: 'added' | 'removed' | 'changed';
                a: {
                  sha256: string;
                  size_bytes: number;
                } | null;
                b: {
                  sha256: string;
                  size_bytes: number;
                } | null;
                size_diff_bytes: number;
                binary: boolean;
                /** @description changed text files: a unified diff from a to b */
                diff?: string;
                /** @enum {string} */
                diff_omitted?: 'binary' | 'too_large';
              }[];
              unchanged_files: number;
              levels: {
                role: string;
                attempt: number;
                a: {
                  level_id: string;
                  cost_usd: number;
                  duration_ms: number;
                  verdict: string | null;
                  model: string | null;
                  carried_over: boolean;
                  source_level_id: string | null;
                } | null;
                b: {
                  level_id: string;
                  cost_usd: number;
                  duration_ms: number;
                  verdict: string | null;
                  model: string | null;
                  carried_over: boolean;
                  source_level_id: string | null;
                } | null;
                cost_diff_usd: number | null;
                duration_diff_ms: number | null;
              }[];
              cost_diff_usd: number;
              duration_diff_ms: number;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/jobs/{id}/steps/{role}/{run}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
          role: string;
          run: string;
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
            'application/json': {
              level_id: string;
              calls: {
                round: number;
                /** @description the model-call attempt that answered (Temporal retries a failed call) */
                attempt: number;
                /** @description the failure of the attempt before, when there was a retry */
                retried_because: string | null;
                provider: string | null;
                model: string | null;
                usage: {
                  prompt_tokens: number;
                  completion_tokens: number;
                  reasoning_tokens: number;
                } | null;
                cost_usd: number | null;
                failure: string | null;
              }[];
              /** @description the prompt as sent, then each tool round, redacted as Keel redacts prompts */
              messages: {
                role: string;
                content: string | null;
                tool_calls: {
                  id: string;
                  name: string;
                  arguments: string;
                }[];
                tool_call_id: string | null;
              }[];
              output: string | null;
              tools: string[];
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/jobs/{id}/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            call_id: string;
            answer: string;
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
            'application/json': {
              job_id: string;
              call_id: string;
              /** @enum {string} */
              status: 'resumed';
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/approvals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          status?: 'pending' | 'approved' | 'rejected';
          job_id?: string;
          workflow_id?: string;
          project_slug?: string;
          /** @description `true`: only those of jobs that have not ended (the console's inbox) */
          job_active?: 'true' | 'false';
          limit?: number;
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
            'application/json': {
              approvals: {
                approval_id: string;
                job_id: string;
                workflow_id: string;
                role: string;
                call_id: string | null;
                action: string;
                reason: string;
                /** @enum {string} */
                status: 'pending' | 'approved' | 'rejected';
                decided_by: string | null;
                decided_at: string | null;
                comment: string | null;
                created_at: string;
                request: {
                  action: string;
                  reason: string;
                  role: string;
                  paths: string[];
                  cost_usd: number | null;
                  branch: string | null;
                } | null;
                reminded_at: string | null;
                escalated_at: string | null;
                escalated_to: string | null;
                escalated_people:
                  | {
                      id: string;
                      email: string;
                      name: string | null;
                    }[]
                  | null;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/approvals/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
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
            'application/json': {
              approval_id: string;
              job_id: string;
              workflow_id: string;
              role: string;
              call_id: string | null;
              action: string;
              reason: string;
              /** @enum {string} */
              status: 'pending' | 'approved' | 'rejected';
              decided_by: string | null;
              decided_at: string | null;
              comment: string | null;
              created_at: string;
              request: {
                action: string;
                reason: string;
                role: string;
                paths: string[];
                cost_usd: number | null;
                branch: string | null;
              } | null;
              reminded_at: string | null;
              escalated_at: string | null;
              escalated_to: string | null;
              escalated_people:
                | {
                    id: string;
                    email: string;
                    name: string | null;
                  }[]
                | null;
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/approvals/{id}/decide': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @enum {string} */
            decision: 'approve' | 'reject';
            comment?: string;
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
            'application/json': {
              approval_id: string;
              job_id: string;
              workflow_id: string;
              role: string;
              call_id: string | null;
              action: string;
              reason: string;
              /** @enum {string} */
              status: 'pending' | 'approved' | 'rejected';
              decided_by: string | null;
              decided_at: string | null;
              comment: string | null;
              created_at: string;
              request: {
                action: string;
                reason: string;
                role: string;
                paths: string[];
                cost_usd: number | null;
                branch: string | null;
              } | null;
              reminded_at: string | null;
              escalated_at: string | null;
              escalated_to: string | null;
              escalated_people:
                | {
                    id: string;
                    email: string;
                    name: string | null;
                  }[]
                | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/jobs/{id}/stream': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          last_event_id?: number;
          /** @description `0`: durable events only, no `event: delta` messages (for scripts); `1` (the default): the job's live model output too */
          deltas?: '0' | '1';
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description the job's events from after Last-Event-ID, one `id:` (the sequence) and `data:` (the event as JSON) each; open until the job's final event. Unless `deltas=0`, live model output travels between them as `event: delta` messages with no `id:`, each `data:` a `LiveDelta` (components.schemas; docs/live-output.md): first the partial output of each call in progress, then the rest as it streams */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/event-stream': string;
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/models': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
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
            'application/json': {
              models: {
                provider: string;
                model: string;
                display_name: string;
                wire: string;
                features: string[];
                cost_tier: string;
                pricing_per_1k: {
                  input: number;
                  output: number;
                  cached_input?: number;
                  cache_write?: number;
                } | null;
                context_tokens: number;
                max_output_tokens: number;
                effort_rungs: string[];
                quota: {
                  rpm: {
                    used: number;
                    limit: number;
                    reset_ms: number;
                  };
                  tpm: {
                    used: number;
                    limit: number;
                    reset_ms: number;
                  };
                  rpd: {
                    used: number;
                    limit: number;
                    reset_ms: number;
                  };
                } | null;
                configured: boolean;
                allowed: boolean;
              }[];
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/workflows': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          limit?: string;
          cursor?: string;
          project_slug?: string;
          include_hidden?: 'true' | 'false';
          q?: string;
          status?: string;
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
            'application/json': {
              workflows: {
                workflow_id: string;
                project_slug: string | null;
                created_by: string;
                updated_at: string;
                hidden: boolean;
                status: string;
                latest_job_id: string | null;
                scenario: string;
                title: string;
                title_set: boolean;
                created_at: string | null;
                started_at: string | null;
                finished_at: string | null;
                cost_usd: number;
                /** @enum {string|null} */
                follow_up_policy: 'amend' | 'enqueue' | 'interrupt' | 'reject' | null;
              }[];
              next_cursor: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            prompt: string;
            project_slug?: string;
            metadata?: {
              /** @enum {string} */
              model_tier?: 'free' | 'cheap' | 'frontier';
              template?: string;
              design?: string;
              deploy?: boolean;
              priority?: number;
            } & {
              [key: string]: unknown;
            };
            budget_usd?: number;
            scenario?: string;
            webhook?: {
              /**
               * Format: uri
               * @description https endpoint; http and loopback or private addresses only for hosts in WEBHOOK_ALLOW_HOSTS
               */
              url: string;
              /** @description event kinds to deliver; final and error when absent */
              events?: (
                | 'final'
                | 'error'
                | 'ask_user'
                | 'approval_requested'
                | 'human_task_assigned'
                | 'approval_decided'
                | 'reminder_sent'
                | 'escalated'
                | 'timed_out'
              )[];
            };
            /** @enum {string} */
            follow_up_policy?: 'amend' | 'enqueue' | 'interrupt' | 'reject';
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
            'application/json': {
              workflow: {
                workflow_id: string;
                project_slug: string | null;
                created_by: string;
                updated_at: string;
                hidden: boolean;
                status: string;
                latest_job_id: string | null;
                scenario: string;
                title: string;
                title_set: boolean;
                created_at: string | null;
                started_at: string | null;
                finished_at: string | null;
                cost_usd: number;
                /** @enum {string|null} */
                follow_up_policy: 'amend' | 'enqueue' | 'interrupt' | 'reject' | null;
              };
              prompt_id: string;
              job_id: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        402: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                /** @enum {string} */
                code: 'over_budget';
                message: string;
                budget: {
                  /** @enum {string} */
                  scope: 'user' | 'project' | 'org';
                  user_id?: string;
                  org_id?: string;
                  project_slug?: string;
                  budget_cents: number;
                  spent_cents: number;
                  remaining_cents: number;
                  period_start: string;
                };
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/workflows/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
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
            'application/json': {
              workflow_id: string;
              project_slug: string | null;
              created_by: string;
              updated_at: string;
              hidden: boolean;
              status: string;
              latest_job_id: string | null;
              scenario: string;
              title: string;
              title_set: boolean;
              created_at: string | null;
              started_at: string | null;
              finished_at: string | null;
              cost_usd: number;
              /** @enum {string|null} */
              follow_up_policy: 'amend' | 'enqueue' | 'interrupt' | 'reject' | null;
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            title?: string | null;
            /** @enum {string|null} */
            follow_up_policy?: 'amend' | 'enqueue' | 'interrupt' | 'reject' | null;
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
            'application/json': {
              workflow_id: string;
              project_slug: string | null;
              created_by: string;
              updated_at: string;
              hidden: boolean;
              status: string;
              latest_job_id: string | null;
              scenario: string;
              title: string;
              title_set: boolean;
              created_at: string | null;
              started_at: string | null;
              finished_at: string | null;
              cost_usd: number;
              /** @enum {string|null} */
              follow_up_policy: 'amend' | 'enqueue' | 'interrupt' | 'reject' | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    trace?: never;
  };
  '/v1/workflows/{id}/hide': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
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
            'application/json': {
              workflow_id: string;
              hidden: boolean;
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/workflows/{id}/unhide': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
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
            'application/json': {
              workflow_id: string;
              hidden: boolean;
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/workflows/{id}/prompts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
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
            'application/json': {
              workflow_id: string;
              prompts: {
                prompt_id: string;
                workflow_id: string;
                prompt: string;
                created_by: string;
                created_at: string;
                job_id: string | null;
                /** @enum {string} */
                delivered: 'new_job' | 'running_job' | 'not_run';
              }[];
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            prompt: string;
            metadata?: {
              /** @enum {string} */
              model_tier?: 'free' | 'cheap' | 'frontier';
              template?: string;
              design?: string;
              deploy?: boolean;
              priority?: number;
            } & {
              [key: string]: unknown;
            };
            /** @enum {string} */
            follow_up?: 'amend' | 'enqueue' | 'interrupt' | 'reject';
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
            'application/json': {
              workflow_id: string;
              prompt_id: string;
              job_id: string | null;
              /** @enum {string} */
              delivered: 'new_job' | 'running_job' | 'not_run';
              /** @enum {string|null} */
              policy: 'amend' | 'enqueue' | 'interrupt' | 'reject' | null;
              after_job_id: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        402: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                /** @enum {string} */
                code: 'over_budget';
                message: string;
                budget: {
                  /** @enum {string} */
                  scope: 'user' | 'project' | 'org';
                  user_id?: string;
                  org_id?: string;
                  project_slug?: string;
                  budget_cents: number;
                  spent_cents: number;
                  remaining_cents: number;
                  period_start: string;
                };
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
                job_id?: string;
              };
            };
          };
        };
        /** @description Default Response */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/workflows/{id}/graph': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
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
            'application/json': {
              workflow_id: string;
              version: number;
              scenario: string;
              agents: {
                role: string;
                requirements?: string[];
                /** @enum {string} */
                effort?: 'none' | 'low' | 'medium' | 'high' | 'max';
                pins?: string[];
                fallback?: string[];
                /** @default  */
                prompt: string;
                tools?: (
                  | 'write_file'
                  | 'edit_file'
                  | 'read_file'
                  | 'list_files'
                  | 'search_files'
                  | 'run_command'
                  | 'ask_user'
                  | 'request_approval'
                  | 'kb_search'
                )[];
                commands?: string[];
                mcp?: string[];
                deterministic?: boolean;
              }[];
              edges: {
                from: string;
                to: string;
                prompt?: string;
              }[];
              order: string[];
              chain: {
                scenario: string;
              } | null;
              product: {
                gates: {
                  /** @default true */
                  scope: boolean;
                  /** @default true */
                  clarify: boolean;
                  /** @default true */
                  solutions: boolean;
                };
                template?: string;
                design?: string;
                /** @default [] */
                confirm: ('template' | 'design')[];
                /** @default true */
                build_verify: boolean;
                /**
                 * @default off
                 * @enum {string}
                 */
                deploy: 'off' | 'auto' | 'approve';
              } | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/workflows/{id}/agents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            agent: {
              role: string;
              requirements?: string[];
              /** @enum {string} */
              effort?: 'none' | 'low' | 'medium' | 'high' | 'max';
              pins?: string[];
              fallback?: string[];
              /** @default  */
              prompt?: string;
              tools?: (
                | 'write_file'
                | 'edit_file'
                | 'read_file'
                | 'list_files'
                | 'search_files'
                | 'run_command'
                | 'ask_user'
                | 'request_approval'
                | 'kb_search'
              )[];
              commands?: string[];
              mcp?: string[];
              deterministic?: boolean;
            };
            version?: number;
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
            'application/json': {
              workflow_id: string;
              version: number;
              scenario: string;
              agents: {
                role: string;
                requirements?: string[];
                /** @enum {string} */
                effort?: 'none' | 'low' | 'medium' | 'high' | 'max';
                pins?: string[];
                fallback?: string[];
                /** @default  */
                prompt: string;
                tools?: (
                  | 'write_file'
                  | 'edit_file'
                  | 'read_file'
                  | 'list_files'
                  | 'search_files'
                  | 'run_command'
                  | 'ask_user'
                  | 'request_approval'
                  | 'kb_search'
                )[];
                commands?: string[];
                mcp?: string[];
                deterministic?: boolean;
              }[];
              edges: {
                from: string;
                to: string;
                prompt?: string;
              }[];
              order: string[];
              chain: {
                scenario: string;
              } | null;
              product: {
                gates: {
                  /** @default true */
                  scope: boolean;
                  /** @default true */
                  clarify: boolean;
                  /** @default true */
                  solutions: boolean;
                };
                template?: string;
                design?: string;
                /** @default [] */
                confirm: ('template' | 'design')[];
                /** @default true */
                build_verify: boolean;
                /**
                 * @default off
                 * @enum {string}
                 */
                deploy: 'off' | 'auto' | 'approve';
              } | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/workflows/{id}/edges': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            from: string;
            to: string;
            prompt?: string;
            version?: number;
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
            'application/json': {
              workflow_id: string;
              version: number;
              scenario: string;
              agents: {
                role: string;
                requirements?: string[];
                /** @enum {string} */
                effort?: 'none' | 'low' | 'medium' | 'high' | 'max';
                pins?: string[];
                fallback?: string[];
                /** @default  */
                prompt: string;
                tools?: (
                  | 'write_file'
                  | 'edit_file'
                  | 'read_file'
                  | 'list_files'
                  | 'search_files'
                  | 'run_command'
                  | 'ask_user'
                  | 'request_approval'
                  | 'kb_search'
                )[];
                commands?: string[];
                mcp?: string[];
                deterministic?: boolean;
              }[];
              edges: {
                from: string;
                to: string;
                prompt?: string;
              }[];
              order: string[];
              chain: {
                scenario: string;
              } | null;
              product: {
                gates: {
                  /** @default true */
                  scope: boolean;
                  /** @default true */
                  clarify: boolean;
                  /** @default true */
                  solutions: boolean;
                };
                template?: string;
                design?: string;
                /** @default [] */
                confirm: ('template' | 'design')[];
                /** @default true */
                build_verify: boolean;
                /**
                 * @default off
                 * @enum {string}
                 */
                deploy: 'off' | 'auto' | 'approve';
              } | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/workflows/{id}/edges/delete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            from: string;
            to: string;
            version?: number;
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
            'application/json': {
              workflow_id: string;
              version: number;
              scenario: string;
              agents: {
                role: string;
                requirements?: string[];
                /** @enum {string} */
                effort?: 'none' | 'low' | 'medium' | 'high' | 'max';
                pins?: string[];
                fallback?: string[];
                /** @default  */
                prompt: string;
                tools?: (
                  | 'write_file'
                  | 'edit_file'
                  | 'read_file'
                  | 'list_files'
                  | 'search_files'
                  | 'run_command'
                  | 'ask_user'
                  | 'request_approval'
                  | 'kb_search'
                )[];
                commands?: string[];
                mcp?: string[];
                deterministic?: boolean;
              }[];
              edges: {
                from: string;
                to: string;
                prompt?: string;
              }[];
              order: string[];
              chain: {
                scenario: string;
              } | null;
              product: {
                gates: {
                  /** @default true */
                  scope: boolean;
                  /** @default true */
                  clarify: boolean;
                  /** @default true */
                  solutions: boolean;
                };
                template?: string;
                design?: string;
                /** @default [] */
                confirm: ('template' | 'design')[];
                /** @default true */
                build_verify: boolean;
                /**
                 * @default off
                 * @enum {string}
                 */
                deploy: 'off' | 'auto' | 'approve';
              } | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/workflows/{id}/edge-prompt': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            from: string;
            to: string;
            prompt: string | null;
            version?: number;
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
            'application/json': {
              workflow_id: string;
              version: number;
              scenario: string;
              agents: {
                role: string;
                requirements?: string[];
                /** @enum {string} */
                effort?: 'none' | 'low' | 'medium' | 'high' | 'max';
                pins?: string[];
                fallback?: string[];
                /** @default  */
                prompt: string;
                tools?: (
                  | 'write_file'
                  | 'edit_file'
                  | 'read_file'
                  | 'list_files'
                  | 'search_files'
                  | 'run_command'
                  | 'ask_user'
                  | 'request_approval'
                  | 'kb_search'
                )[];
                commands?: string[];
                mcp?: string[];
                deterministic?: boolean;
              }[];
              edges: {
                from: string;
                to: string;
                prompt?: string;
              }[];
              order: string[];
              chain: {
                scenario: string;
              } | null;
              product: {
                gates: {
                  /** @default true */
                  scope: boolean;
                  /** @default true */
                  clarify: boolean;
                  /** @default true */
                  solutions: boolean;
                };
                template?: string;
                design?: string;
                /** @default [] */
                confirm: ('template' | 'design')[];
                /** @default true */
                build_verify: boolean;
                /**
                 * @default off
                 * @enum {string}
                 */
                deploy: 'off' | 'auto' | 'approve';
              } | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/workflows/{id}/run-graph': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          job_id?: string;
        };
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
            'application/json': {
              job_id: string;
              workflow_id: string;
              /** @enum {string} */
              status: 'completed' | 'failed' | 'cancelled' | 'unfinished';
              scenarios: string[];
              levels: {
                level_id: string;
                role: string;
                attempt: number;
                scenario: string | null;
                started_at: string;
                finished_at: string | null;
                duration_ms: number | null;
                ok: boolean | null;
                verdict: string | null;
                deltas: string[];
                intended_model: string | null;
                provider: string | null;
                model: string | null;
                cost_usd: number;
                deterministic: boolean;
              }[];
              edges: {
                from: string;
                to: string;
                /** @enum {string} */
                kind: 'handoff' | 'retry' | 'escalate';
              }[];
              total_cost_usd: number;
              started_at: string | null;
              finished_at: string | null;
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/kb/query': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            query: string;
            /** @default 8 */
            k?: number;
            filters?: {
              tags?: string[];
              sensitivity?: ('public' | 'partner' | 'internal' | 'secret')[];
              source?: string[];
            };
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
            'application/json': {
              results: {
                chunk_id: string;
                kh_id: string;
                path: string;
                title: string;
                heading: string;
                snippet: string;
                score: number;
                /** @enum {string} */
                sensitivity: 'public' | 'partner' | 'internal' | 'secret';
                tags: string[];
                source: string;
                start_line: number;
                end_line: number;
              }[];
              embedder: {
                provider: string;
                model: string;
                dims: number;
              };
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/kb/doc/{kh_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          kh_id: string;
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
            'application/json': {
              kh_id: string;
              space:
                | 'shared'
                | {
                    org: string;
                  };
              path: string;
              title: string;
              frontmatter: {
                [key: string]: unknown;
              };
              markdown: string;
              /** @enum {string} */
              sensitivity: 'public' | 'partner' | 'internal' | 'secret';
              tags: string[];
              source: string;
              source_url: string | null;
              content_hash: string;
              created_at: string;
              updated_at: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete: {
      parameters: {
        query?: {
          base_hash?: string;
        };
        header?: never;
        path: {
          kh_id: string;
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
            'application/json': {
              kh_id: string;
              path: string;
              /** @enum {string} */
              status: 'deleted';
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/kb/file': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query: {
          path: string;
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
            'application/json': {
              path: string;
              content: string;
              content_hash: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            path: string;
            content: string;
            base_hash?: string | null;
            /** @enum {string} */
            space?: 'org' | 'shared';
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
            'application/json': {
              path: string;
              kh_id: string;
              content_hash: string;
              /** @enum {string} */
              status: 'indexed' | 'unchanged';
              chunks: number;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/kb/attachment': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query: {
          path: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description the attachment's bytes, under the type it was stored with */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            '*/*': string;
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/kb/edit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            kh_id: string;
            base_hash: string;
            body?: string;
            frontmatter?: {
              [key: string]: unknown;
            };
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
            'application/json': {
              path: string;
              kh_id: string;
              content_hash: string;
              /** @enum {string} */
              status: 'indexed' | 'unchanged';
              chunks: number;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/atlas/domains': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
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
            'application/json': {
              sources: {
                source: string;
                documents: number;
                chunks: number;
              }[];
              tags: {
                tag: string;
                documents: number;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/atlas/scope': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          source?: string;
          tag?: string;
          limit?: number;
          cursor?: string;
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
            'application/json': {
              documents: {
                kh_id: string;
                path: string;
                title: string;
                /** @enum {string} */
                sensitivity: 'public' | 'partner' | 'internal' | 'secret';
                tags: string[];
                source: string;
                updated_at: string;
              }[];
              next_cursor: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/atlas/node/{kh_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          neighbours?: number;
        };
        header?: never;
        path: {
          kh_id: string;
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
            'application/json': {
              document: {
                kh_id: string;
                path: string;
                title: string;
                /** @enum {string} */
                sensitivity: 'public' | 'partner' | 'internal' | 'secret';
                tags: string[];
                source: string;
                updated_at: string;
                source_url: string | null;
                chunks: number;
              };
              neighbours: {
                kh_id: string;
                path: string;
                title: string;
                similarity: number;
              }[];
              links: {
                outgoing: {
                  href: string;
                  kh_id: string | null;
                  path: string | null;
                  title: string | null;
                }[];
                incoming: {
                  kh_id: string;
                  path: string;
                  title: string;
                }[];
              };
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/designs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
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
            'application/json': {
              designs: {
                id: string;
                name: string;
                /** @default  */
                description: string;
                /** @default [] */
                keywords: string[];
                tokens: {
                  color: {
                    background: string;
                    text: string;
                    primary: string;
                    accent: string;
                  };
                  typography: {
                    font_body: string;
                    font_heading: string;
                    size_base: string;
                  };
                  spacing: {
                    unit: string;
                    max_width: string;
                  };
                };
                /** @enum {string} */
                layout: 'single-column' | 'two-column' | 'grid' | 'sidebar';
                /** @enum {string} */
                source: 'shipped' | 'org';
                created_at: string | null;
              }[];
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            id: string;
            name: string;
            /** @default  */
            description?: string;
            /** @default [] */
            keywords?: string[];
            tokens: {
              color: {
                background: string;
                text: string;
                primary: string;
                accent: string;
              };
              typography: {
                font_body: string;
                font_heading: string;
                size_base: string;
              };
              spacing: {
                unit: string;
                max_width: string;
              };
            };
            /** @enum {string} */
            layout: 'single-column' | 'two-column' | 'grid' | 'sidebar';
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
            'application/json': {
              id: string;
              name: string;
              /** @default  */
              description: string;
              /** @default [] */
              keywords: string[];
              tokens: {
                color: {
                  background: string;
                  text: string;
                  primary: string;
                  accent: string;
                };
                typography: {
                  font_body: string;
                  font_heading: string;
                  size_base: string;
                };
                spacing: {
                  unit: string;
                  max_width: string;
                };
              };
              /** @enum {string} */
              layout: 'single-column' | 'two-column' | 'grid' | 'sidebar';
              /** @enum {string} */
              source: 'shipped' | 'org';
              created_at: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/human-tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          state?: 'open' | 'done';
          assignee?: string;
          job_id?: string;
          project_slug?: string;
          /** @description `true`: only those of jobs that have not ended (the console's inbox) */
          job_active?: 'true' | 'false';
          limit?: number;
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
            'application/json': {
              tasks: {
                task_id: string;
                job_id: string;
                workflow_id: string;
                role: string;
                title: string;
                detail: string;
                assignee: string;
                due_at: string | null;
                /** @enum {string} */
                state: 'open' | 'done';
                completed_by: string | null;
                completed_at: string | null;
                note: string | null;
                created_at: string;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/human-tasks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
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
            'application/json': {
              task_id: string;
              job_id: string;
              workflow_id: string;
              role: string;
              title: string;
              detail: string;
              assignee: string;
              due_at: string | null;
              /** @enum {string} */
              state: 'open' | 'done';
              completed_by: string | null;
              completed_at: string | null;
              note: string | null;
              created_at: string;
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/human-tasks/{id}/complete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            note?: string;
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
            'application/json': {
              task_id: string;
              job_id: string;
              workflow_id: string;
              role: string;
              title: string;
              detail: string;
              assignee: string;
              due_at: string | null;
              /** @enum {string} */
              state: 'open' | 'done';
              completed_by: string | null;
              completed_at: string | null;
              note: string | null;
              created_at: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          user?: string;
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
            'application/json': {
              tokens: {
                token_id: string;
                user_id: string;
                org_id: string;
                is_admin: boolean;
                label: string | null;
                created_at: string;
                expires_at: string | null;
                last_used_at: string | null;
                revoked_at: string | null;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            label?: string;
            /** Format: date-time */
            expires_at?: string;
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
            'application/json': {
              token_id: string;
              user_id: string;
              org_id: string;
              is_admin: boolean;
              label: string | null;
              created_at: string;
              expires_at: string | null;
              last_used_at: string | null;
              revoked_at: string | null;
              token: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/tokens/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
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
            'application/json': {
              token_id: string;
              user_id: string;
              org_id: string;
              is_admin: boolean;
              label: string | null;
              created_at: string;
              expires_at: string | null;
              last_used_at: string | null;
              revoked_at: string | null;
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/scenarios': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
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
            'application/json': {
              scenarios: {
                /** @description what `scenario` takes on POST /v1/workflows, /v1/workflows/{id}/prompts and /v1/chat */
                name: string;
                description: string;
                /** @description the scenario a submission without `scenario` runs */
                default: boolean;
                /** @description the scenario the job continues with after this one succeeds */
                chain: string | null;
              }[];
            };
          };
        };
        /** @description Default Response */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/questions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          state?: 'open' | 'answered' | 'unanswered';
          job_id?: string;
          project_slug?: string;
          limit?: string;
          cursor?: string;
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
            'application/json': {
              questions: {
                job_id: string;
                workflow_id: string;
                project_slug: string | null;
                /** @description the ask_user event's sequence in its job */
                sequence: number;
                /** @description answer with POST /v1/jobs/{job_id}/resume and this call_id */
                call_id: string;
                role: string;
                level_id: string | null;
                question: string;
                asked_at: string;
                /** @enum {string} */
                state: 'open' | 'answered' | 'unanswered';
                answer: string | null;
                /** @description the user id that answered through the API; null when not recorded */
                answered_by: string | null;
                answered_at: string | null;
              }[];
              next_cursor: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/me/budgets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
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
            'application/json': {
              user_id: string;
              period_start: string;
              /** @description the caller's own monthly budget, as GET /me/budget of the identity service answers it */
              user: {
                /** @description an admin, or a machine user the identity service does not know: no monthly cap */
                exempt: boolean;
                /** @description null: no cap */
                budget_cents: number | null;
                spent_cents: number;
                remaining_cents: number | null;
                over_budget: boolean;
              };
              /** @description the caller's org */
              org: {
                org_id: string;
                budget_cents: number | null;
                spent_cents: number;
                remaining_cents: number | null;
                over_budget: boolean;
              };
              /** @description the projects of the caller's org */
              projects: {
                org_id: string;
                project_slug: string;
                name: string;
                budget_cents: number | null;
                spent_cents: number;
                remaining_cents: number | null;
                over_budget: boolean;
              }[];
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/me/spend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          since?: string;
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
            'application/json': {
              user_id: string;
              since: string;
              total_usd: number;
              /** @description every job counted, including those past the by_job list */
              jobs: number;
              by_day: {
                /** @description YYYY-MM-DD, UTC */
                day: string;
                jobs: number;
                cost_usd: number;
              }[];
              /** @description the most expensive jobs first, at most 100 */
              by_job: {
                job_id: string;
                workflow_id: string;
                status: string;
                /** @description the first line of the job's prompt */
                title: string;
                created_at: string;
                cost_usd: number;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/budgets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          org?: string;
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
            'application/json': {
              period_start: string;
              orgs: {
                org_id: string;
                budget_cents: number | null;
                spent_cents: number;
                remaining_cents: number | null;
                over_budget: boolean;
              }[];
              projects: {
                org_id: string;
                project_slug: string;
                name: string;
                budget_cents: number | null;
                spent_cents: number;
                remaining_cents: number | null;
                over_budget: boolean;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/budgets/orgs/{org}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            budget_cents: number | null;
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
            'application/json': {
              org_id: string;
              budget_cents: number | null;
              spent_cents: number;
              remaining_cents: number | null;
              over_budget: boolean;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/admin/budgets/orgs/{org}/projects/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            budget_cents: number | null;
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
            'application/json': {
              org_id: string;
              project_slug: string;
              name: string;
              budget_cents: number | null;
              spent_cents: number;
              remaining_cents: number | null;
              over_budget: boolean;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/admin/approval-policies': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          org?: string;
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
            'application/json': {
              policies: {
                org_id: string;
                project_slug: string;
                /** @description the stored policy document */
                policy: unknown;
                /** @description the policy as YAML: the text the admin sent (comments kept), or the document written out as YAML */
                policy_yaml: string;
                updated_by: string;
                updated_at: string;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/approval-policies/orgs/{org}/projects/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
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
            'application/json': {
              org_id: string;
              project_slug: string;
              /** @description the stored policy document */
              policy: unknown;
              /** @description the policy as YAML: the text the admin sent (comments kept), or the document written out as YAML */
              policy_yaml: string;
              updated_by: string;
              updated_at: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description the policy document (docs/approval-policies.md) */
            policy?: unknown;
            /** @description the same document as YAML */
            policy_yaml?: string;
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
            'application/json': {
              org_id: string;
              project_slug: string;
              /** @description the stored policy document */
              policy: unknown;
              /** @description the policy as YAML: the text the admin sent (comments kept), or the document written out as YAML */
              policy_yaml: string;
              updated_by: string;
              updated_at: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    post?: never;
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': null;
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/approval-policies/orgs/{org}/projects/{slug}/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          /** @description how many changes, newest first */
          limit?: number;
        };
        header?: never;
        path: {
          org: string;
          slug: string;
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
            'application/json': {
              changes: {
                change_id: string;
                /** @enum {string} */
                change: 'set' | 'removed';
                /** @description the document set; null when removed */
                policy: unknown;
                /** @description the same as YAML; null when removed */
                policy_yaml: string | null;
                changed_by: string;
                changed_at: string;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/approval-policies/orgs/{org}/projects/{slug}/dry-run': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description the policy document (docs/approval-policies.md) */
            policy?: unknown;
            /** @description the same document as YAML */
            policy_yaml?: string;
            /**
             * @description how many of the project's newest approvals
             * @default 20
             */
            last?: number;
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
            'application/json': {
              evaluated: number;
              would_approve: number;
              would_reject: number;
              to_a_person: number;
              approvals: {
                approval_id: string;
                created_at: string;
                action: string;
                status: string;
                decided_by: string | null;
                request: {
                  action: string;
                  reason: string;
                  role: string;
                  paths: string[];
                  cost_usd: number | null;
                  branch: string | null;
                };
                would: {
                  /** @enum {string} */
                  decision: 'approve' | 'reject';
                  rule_id: string;
                } | null;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/jobs/{id}/webhook-deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
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
            'application/json': {
              deliveries: {
                /** @description sent as Keel-Delivery-Id on every attempt of this delivery */
                delivery_id: string;
                /** @description the delivered event, by its sequence in the job */
                sequence: number;
                event_kind: string;
                url: string;
                /** @description the project's webhook subscription delivered to; null: the submission's own webhook */
                subscription_id: string | null;
                /** @enum {string} */
                status: 'pending' | 'delivered' | 'failed';
                created_at: string;
                finished_at: string | null;
                attempts: {
                  attempt: number;
                  attempted_at: string;
                  /** @description the endpoint's answer; null when none came */
                  status_code: number | null;
                  latency_ms: number;
                  ok: boolean;
                  error: string | null;
                }[];
              }[];
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/jobs/{id}/webhook-deliveries/{delivery_id}/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
          delivery_id: string;
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
            'application/json': {
              /** @description the new delivery, with its own attempts */
              delivery_id: string;
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/webhook-subscriptions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          org?: string;
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
            'application/json': {
              subscriptions: {
                /** @description part of the Keel-Delivery-Id of every delivery to this endpoint */
                subscription_id: string;
                org_id: string;
                project_slug: string;
                url: string;
                events: string[];
                created_by: string;
                created_at: string;
                rotated_at: string | null;
                /** @description until when the secret replaced by the last rotation still signs deliveries; null: only the current one */
                previous_secret_expires_at: string | null;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/webhook-subscriptions/orgs/{org}/projects/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
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
            'application/json': {
              subscriptions: {
                /** @description part of the Keel-Delivery-Id of every delivery to this endpoint */
                subscription_id: string;
                org_id: string;
                project_slug: string;
                url: string;
                events: string[];
                created_by: string;
                created_at: string;
                rotated_at: string | null;
                /** @description until when the secret replaced by the last rotation still signs deliveries; null: only the current one */
                previous_secret_expires_at: string | null;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /**
             * Format: uri
             * @description https endpoint; http and loopback or private addresses only for hosts in WEBHOOK_ALLOW_HOSTS
             */
            url: string;
            /** @description event kinds to deliver; final and error when absent */
            events?: (
              | 'final'
              | 'error'
              | 'ask_user'
              | 'approval_requested'
              | 'human_task_assigned'
              | 'approval_decided'
              | 'reminder_sent'
              | 'escalated'
              | 'timed_out'
            )[];
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
            'application/json': {
              /** @description part of the Keel-Delivery-Id of every delivery to this endpoint */
              subscription_id: string;
              org_id: string;
              project_slug: string;
              url: string;
              events: string[];
              created_by: string;
              created_at: string;
              rotated_at: string | null;
              /** @description until when the secret replaced by the last rotation still signs deliveries; null: only the current one */
              previous_secret_expires_at: string | null;
              /** @description the signing secret, shown once: no route reads it back */
              secret: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/webhook-subscriptions/orgs/{org}/projects/{slug}/{subscription_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
          subscription_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': null;
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/webhook-subscriptions/orgs/{org}/projects/{slug}/{subscription_id}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
          subscription_id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /**
             * @description how long the replaced secret still signs deliveries (a second v1=); 0: not at all
             * @default 86400
             */
            overlap_seconds?: number;
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
            'application/json': {
              /** @description part of the Keel-Delivery-Id of every delivery to this endpoint */
              subscription_id: string;
              org_id: string;
              project_slug: string;
              url: string;
              events: string[];
              created_by: string;
              created_at: string;
              rotated_at: string | null;
              /** @description until when the secret replaced by the last rotation still signs deliveries; null: only the current one */
              previous_secret_expires_at: string | null;
              /** @description the signing secret, shown once: no route reads it back */
              secret: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/webhook-subscriptions/orgs/{org}/projects/{slug}/{subscription_id}/expire-previous-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
          subscription_id: string;
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
            'application/json': {
              /** @description part of the Keel-Delivery-Id of every delivery to this endpoint */
              subscription_id: string;
              org_id: string;
              project_slug: string;
              url: string;
              events: string[];
              created_by: string;
              created_at: string;
              rotated_at: string | null;
              /** @description until when the secret replaced by the last rotation still signs deliveries; null: only the current one */
              previous_secret_expires_at: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/job-slots': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
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
            'application/json': {
              enabled: boolean;
              fair: boolean;
              default_max_running: number | null;
              total_max_running: number | null;
              orgs: {
                org_id: string;
                running: number;
                queued: number;
                oldest_queued_at: string | null;
                max_running: number | null;
                projects: {
                  project_slug: string;
                  running: number;
                  queued: number;
                  max_running: number | null;
                }[];
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/job-slots/orgs/{org}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            max_running: number | null;
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
            'application/json': {
              org_id: string;
              running: number;
              queued: number;
              oldest_queued_at: string | null;
              max_running: number | null;
              projects: {
                project_slug: string;
                running: number;
                queued: number;
                max_running: number | null;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/admin/job-slots/orgs/{org}/projects/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            max_running: number | null;
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
            'application/json': {
              project_slug: string;
              running: number;
              queued: number;
              max_running: number | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/answer/{*}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          '*': string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description the answer page: its form, or (after a submission) the thanks */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/html': string;
          };
        };
        /** @description the form again, saying what to fix */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/html': string;
          };
        };
        /** @description the link was changed or not signed by this deployment (`Keel-Link-State: tampered`) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/html': string;
          };
        };
        /** @description answer links are off here (no secret configured) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/html': string;
          };
        };
        /** @description the link was used or the question answered elsewhere (who answered), expired, or its job ended */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/html': string;
          };
        };
        /** @description the job did not take the answer in time; posting again may work */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/html': string;
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          '*': string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description the answer page: its form, or (after a submission) the thanks */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/html': string;
          };
        };
        /** @description the form again, saying what to fix */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/html': string;
          };
        };
        /** @description the link was changed or not signed by this deployment (`Keel-Link-State: tampered`) */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/html': string;
          };
        };
        /** @description answer links are off here (no secret configured) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/html': string;
          };
        };
        /** @description the link was used or the question answered elsewhere (who answered), expired, or its job ended */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/html': string;
          };
        };
        /** @description the job did not take the answer in time; posting again may work */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/html': string;
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/internal/users/{id}/revoke-tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
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
            'application/json': {
              user_id: string;
              revoked: number;
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/internal/ledger/owners': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          job?: string;
          workflow?: string;
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
            'application/json': {
              job: {
                workflow_id: string;
                created_by: string;
              } | null;
              workflow: {
                created_by: string;
              } | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/internal/ledger/spend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query: {
          since: string;
          user?: string;
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
            'application/json': {
              since: string;
              users: {
                user_id: string;
                cents: number;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/internal/ledger/tenant-spend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query: {
          since: string;
          org?: string;
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
            'application/json': {
              since: string;
              orgs: {
                org_id: string;
                cents: number;
              }[];
              projects: {
                org_id: string;
                project_slug: string;
                cents: number;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/mcp': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description not offered: this MCP server keeps no sessions, so it has no stream to open and none to end */
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
        405: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    /** @description Keel as an MCP server (Streamable HTTP, stateless; docs/mcp.md): knowledge-hub and job tools, each acting as the bearer token. A notification or a response from the client is answered 202 with no body. */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @enum {string} */
            jsonrpc: '2.0';
          } & {
            [key: string]: unknown;
          };
        };
      };
      responses: {
        /** @description the JSON-RPC answer: `application/json`, or a `text/event-stream` carrying progress notifications before it */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              jsonrpc: '2.0';
            } & {
              [key: string]: unknown;
            };
            'text/event-stream': string;
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description the client does not accept both application/json and text/event-stream */
        406: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              jsonrpc: '2.0';
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    /** @description not offered: this MCP server keeps no sessions, so it has no stream to open and none to end */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        405: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/mcp-servers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          org?: string;
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
            'application/json': {
              servers: {
                org_id: string;
                project_slug: string;
                name: string;
                /** @enum {string} */
                transport: 'http' | 'stdio';
                url: string | null;
                command: string | null;
                args: string[];
                /** @description the secrets-store id of its bearer token (never the value) */
                secret_id: string | null;
                tools: {
                  allow?: string[];
                  deny?: string[];
                  needs_approval?: string[];
                };
                timeout_ms: number;
                updated_by: string;
                updated_at: string;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/mcp-servers/orgs/{org}/projects/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
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
            'application/json': {
              servers: {
                org_id: string;
                project_slug: string;
                name: string;
                /** @enum {string} */
                transport: 'http' | 'stdio';
                url: string | null;
                command: string | null;
                args: string[];
                /** @description the secrets-store id of its bearer token (never the value) */
                secret_id: string | null;
                tools: {
                  allow?: string[];
                  deny?: string[];
                  needs_approval?: string[];
                };
                timeout_ms: number;
                updated_by: string;
                updated_at: string;
              }[];
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/admin/mcp-servers/orgs/{org}/projects/{slug}/servers/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
          name: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json':
            | {
                /** @enum {string} */
                transport: 'http';
                url: string;
                /** @description the secrets-store id of the bearer token the server expects */
                secret_id?: string;
                /** @default {} */
                tools?: {
                  allow?: string[];
                  deny?: string[];
                  needs_approval?: string[];
                };
                /** @default 30000 */
                timeout_ms?: number;
              }
            | {
                /** @enum {string} */
                transport: 'stdio';
                command: string;
                /** @default [] */
                args?: string[];
                /** @description the secrets-store id of the bearer token the server expects */
                secret_id?: string;
                /** @default {} */
                tools?: {
                  allow?: string[];
                  deny?: string[];
                  needs_approval?: string[];
                };
                /** @default 30000 */
                timeout_ms?: number;
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
            'application/json': {
              org_id: string;
              project_slug: string;
              name: string;
              /** @enum {string} */
              transport: 'http' | 'stdio';
              url: string | null;
              command: string | null;
              args: string[];
              /** @description the secrets-store id of its bearer token (never the value) */
              secret_id: string | null;
              tools: {
                allow?: string[];
                deny?: string[];
                needs_approval?: string[];
              };
              timeout_ms: number;
              updated_by: string;
              updated_at: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    post?: never;
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          org: string;
          slug: string;
          name: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': null;
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/capabilities/plan': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            capability: string;
            reason?: string;
            requirements?: {
              /** @default [] */
              model_features?: string[];
              /** @default [] */
              tools?: string[];
              /** @default [] */
              secrets?: string[];
              /** @default [] */
              templates?: string[];
            };
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
            'application/json': {
              roadmap_id: string;
              capability: string;
              job_id: string;
              workflow_id: string;
              prompt_id: string;
              /** @enum {string} */
              status: 'queued';
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/capabilities': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          limit?: string;
          cursor?: string;
          status?: 'available' | 'acquiring' | 'active' | 'blocked';
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
            'application/json': {
              capabilities: {
                name: string;
                org_id: string;
                title: string;
                description: string;
                /** @enum {string} */
                status: 'available' | 'acquiring' | 'active' | 'blocked';
                requirements: unknown;
                verification: unknown;
                units: unknown;
                roadmap_id: string | null;
                activated_at: string | null;
                updated_at: string;
              }[];
              next_cursor: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/capabilities/ledger': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          limit?: string;
          cursor?: string;
          capability?: string;
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
            'application/json': {
              entries: {
                entry_id: string;
                org_id: string;
                capability: string;
                action: string;
                roadmap_id: string | null;
                actor: string;
                reason: string | null;
                evidence: unknown;
                created_at: string;
              }[];
              next_cursor: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/capabilities/roadmaps/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
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
            'application/json': {
              roadmap_id: string;
              capability: string;
              job_id: string;
              reason: string | null;
              status: string;
              blocked_reason: string | null;
              action_needed: string | null;
              created_by: string;
              created_at: string;
              updated_at: string;
              finished_at: string | null;
              units: {
                position: number;
                unit: string;
                kind: string;
                title: string;
                artifact: string;
                status: string;
                attempts: number;
                last_error: string | null;
                evidence: unknown;
              }[];
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/capabilities/{name}/deactivate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          name: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
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
            'application/json': {
              name: string;
              org_id: string;
              title: string;
              description: string;
              /** @enum {string} */
              status: 'available' | 'acquiring' | 'active' | 'blocked';
              requirements: unknown;
              verification: unknown;
              units: unknown;
              roadmap_id: string | null;
              activated_at: string | null;
              updated_at: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/verticals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          limit?: string;
          cursor?: string;
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
            'application/json': {
              verticals: {
                vertical_id: string;
                name: string;
                description: string | null;
                /** @enum {string} */
                status: 'discovering' | 'awaiting_confirmation' | 'planned' | 'rejected' | 'failed';
                job_id: string;
                plan: unknown;
                answer: string | null;
                created_by: string;
                created_at: string;
                updated_at: string;
              }[];
              next_cursor: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            name: string;
            description?: string;
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
            'application/json': {
              vertical_id: string;
              job_id: string;
              workflow_id: string;
              prompt_id: string;
              /** @enum {string} */
              status: 'discovering';
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/verticals/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
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
            'application/json': {
              vertical_id: string;
              name: string;
              description: string | null;
              /** @enum {string} */
              status: 'discovering' | 'awaiting_confirmation' | 'planned' | 'rejected' | 'failed';
              job_id: string;
              plan: unknown;
              answer: string | null;
              created_by: string;
              created_at: string;
              updated_at: string;
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/work-types': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          limit?: string;
          cursor?: string;
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
            'application/json': {
              work_types: {
                name: string;
                title: string;
                description: string;
                scenario: string;
                capabilities: string[];
                steps: {
                  level: string;
                  title: string;
                }[];
              }[];
              next_cursor: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/work-items': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          limit?: string;
          cursor?: string;
          project_slug?: string;
          initiative_id?: string;
          state?: 'open' | 'planned' | 'in_progress' | 'done' | 'failed';
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
            'application/json': {
              work_items: {
                slug: string;
                org_id: string;
                type: string;
                title: string;
                description: string | null;
                project_slug: string | null;
                initiative_id: string | null;
                state: string;
                plan_version: number;
                workflow_id: string | null;
                created_by: string;
                created_at: string;
                updated_at: string;
              }[];
              next_cursor: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            slug: string;
            type: string;
            title: string;
            description?: string;
            project_slug?: string;
            initiative_id?: string;
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
            'application/json': {
              slug: string;
              org_id: string;
              type: string;
              title: string;
              description: string | null;
              project_slug: string | null;
              initiative_id: string | null;
              state: string;
              plan_version: number;
              workflow_id: string | null;
              created_by: string;
              created_at: string;
              updated_at: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/work-items/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          org_id?: string;
        };
        header?: never;
        path: {
          slug: string;
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
            'application/json': {
              slug: string;
              org_id: string;
              type: string;
              title: string;
              description: string | null;
              project_slug: string | null;
              initiative_id: string | null;
              state: string;
              plan_version: number;
              workflow_id: string | null;
              created_by: string;
              created_at: string;
              updated_at: string;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/work-items/{slug}/plan': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          org_id?: string;
        };
        header?: never;
        path: {
          slug: string;
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
            'application/json': {
              slug: string;
              plan_version: number;
              plan: unknown;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/work-items/{slug}/replan': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: {
          org_id?: string;
        };
        header?: never;
        path: {
          slug: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            reason: string;
            version?: number;
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
            'application/json': {
              slug: string;
              plan_version: number;
              plan: unknown;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/work-items/{slug}/start': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: {
          org_id?: string;
        };
        header?: never;
        path: {
          slug: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @enum {string} */
            model_tier?: 'free' | 'cheap' | 'frontier';
          } | null;
        };
      };
      responses: {
        /** @description Default Response */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              slug: string;
              job_id: string;
              workflow_id: string;
              prompt_id: string;
              /** @enum {string} */
              status: 'queued';
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
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
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/initiatives': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          limit?: string;
          cursor?: string;
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
            'application/json': {
              initiatives: {
                initiative_id: string;
                org_id: string;
                title: string;
                goal: string | null;
                created_by: string;
                created_at: string;
                progress: {
                  workflows: number;
                  work_items: number;
                  work_items_done: number;
                  jobs: number;
                  jobs_by_status: {
                    [key: string]: number;
                  };
                  jobs_finished_ratio: number;
                  cost_usd: number;
                };
              }[];
              next_cursor: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            title: string;
            goal?: string;
            /** @default [] */
            workflow_ids?: string[];
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
            'application/json': {
              initiative_id: string;
              org_id: string;
              title: string;
              goal: string | null;
              created_by: string;
              created_at: string;
              progress: {
                workflows: number;
                work_items: number;
                work_items_done: number;
                jobs: number;
                jobs_by_status: {
                  [key: string]: number;
                };
                jobs_finished_ratio: number;
                cost_usd: number;
              };
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/initiatives/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
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
            'application/json': {
              initiative_id: string;
              org_id: string;
              title: string;
              goal: string | null;
              created_by: string;
              created_at: string;
              progress: {
                workflows: number;
                work_items: number;
                work_items_done: number;
                jobs: number;
                jobs_by_status: {
                  [key: string]: number;
                };
                jobs_finished_ratio: number;
                cost_usd: number;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/command/intents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          limit?: string;
          cursor?: string;
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
            'application/json': {
              intents: {
                name: string;
                /** @enum {string} */
                kind: 'command' | 'rule' | 'fact' | 'llm';
                description: string;
                examples: string[];
                needs_job: boolean;
              }[];
              next_cursor: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            text: string;
            workflow_id?: string;
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
            'application/json': {
              /** @enum {string} */
              intent: 'command' | 'rule' | 'fact' | 'llm';
              executed: boolean;
              needs_job?: boolean;
              name?: string;
              answer: string;
              note?: {
                note_id: string;
                workflow_id: string;
                /** @enum {string} */
                kind: 'rule' | 'fact';
                text: string;
                created_by: string;
                created_at: string;
              };
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/command/notes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query: {
          limit?: string;
          cursor?: string;
          workflow_id: string;
          kind?: 'rule' | 'fact';
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
            'application/json': {
              notes: {
                note_id: string;
                workflow_id: string;
                /** @enum {string} */
                kind: 'rule' | 'fact';
                text: string;
                created_by: string;
                created_at: string;
              }[];
              next_cursor: string | null;
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/stats': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: {
          since?: string;
          until?: string;
          project_slug?: string;
          org_id?: string;
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
            'application/json': {
              window: {
                since: string | null;
                until: string | null;
              };
              org_id: string | null;
              project_slug: string | null;
              jobs: {
                total: number;
                by_status: {
                  [key: string]: number;
                };
              };
              cost_usd: number;
              reasoning_tokens: number;
              prompt_tokens: number;
              completion_tokens: number;
              by_tier: {
                tier: string | null;
                jobs: number;
                cost_usd: number;
                reasoning_tokens: number;
                prompt_tokens: number;
                completion_tokens: number;
              }[];
              by_project: {
                project_slug: string | null;
                jobs: number;
                cost_usd: number;
                reasoning_tokens: number;
                prompt_tokens: number;
                completion_tokens: number;
              }[];
              by_model: {
                provider: string;
                model: string;
                calls: number;
                cost_usd: number;
                reasoning_tokens: number;
                prompt_tokens: number;
                completion_tokens: number;
                fallbacks: number;
              }[];
              effort: {
                strongest: string | null;
                jobs_by_rung: {
                  [key: string]: number;
                };
              };
              fallbacks: number;
              approvals: {
                [key: string]: number;
              };
            };
          };
        };
        /** @description Default Response */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description Default Response */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
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
  '/v1/localinf': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
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
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
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
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    options: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    head: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    trace: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
  };
  '/v1/localinf/{*}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          '*': string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          '*': string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          '*': string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          '*': string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    options: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          '*': string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    head: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          '*': string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          '*': string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    trace: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          '*': string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              };
            };
          };
        };
        /** @description an error */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
        /** @description an error */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              error: {
                code: string;
                message: string;
              } & {
                [key: string]: unknown;
              };
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
    };
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** @description one piece of a running model call’s output (docs/live-output.md) */
    LiveDelta: {
      job_id: string;
      /** @description the level run making the call (`<job_id>/<role>/<attempt>`), as on its durable events */
      level_id: string;
      /** @description one model call of the level run (one tool-loop turn); stable across its fallbacks and retries */
      call_id: string;
      /** @description one try of the call (opaque): each candidate called and each retry is a new attempt; a delta of another attempt than the one shown replaces it */
      attempt: string;
      /**
       * @description `text`, `reasoning`, `tool_arguments`; `discard`: drop everything this attempt streamed; `end`: the call answered and its durable events follow
       * @enum {string}
       */
      kind: 'text' | 'reasoning' | 'tool_arguments' | 'discard' | 'end';
      /** @description where `text` starts in its part of the attempt’s output (the text, the reasoning, or one tool call’s arguments), in UTF-16 code units: append when it is the length you have, skip what you already have */
      offset: number;
      /** @description the piece (at most 4096 characters; empty for `discard` and `end`) */
      text: string;
      /** @description for `tool_arguments`: which tool call of the reply (0-based) */
      tool_call_index?: number;
      /** @description for `tool_arguments`: the tool’s name, once known */
      tool_name?: string;
      /** @description the candidate answering this attempt */
      provider?: string;
      model?: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
