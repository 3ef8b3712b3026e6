"""Reliability suite: load, faults and schema fuzzing against a private production stack
(PostgreSQL, Redis, gunicorn, a Celery worker). Run with ``python -m reliability``;
see docs/reliability.md."""
