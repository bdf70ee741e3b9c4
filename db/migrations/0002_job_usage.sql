-- Per job: the strongest effort rung any call asked for, the reasoning tokens used, and the cost.
ALTER TABLE job_runs ADD COLUMN max_effort text;
ALTER TABLE job_runs ADD COLUMN reasoning_tokens integer NOT NULL DEFAULT 0;
ALTER TABLE job_runs ADD COLUMN cost_usd numeric(12, 6) NOT NULL DEFAULT 0;
