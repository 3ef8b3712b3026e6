"""WSGI entry point for gunicorn and for ``manage.py runserver`` (``make run``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Hints need the strategy tables and numba's compiled kernels in memory; the first call
# loads them (seconds). gunicorn loads them in its master before forking and each worker
# watches for tables built later (deploy/gunicorn.conf.py); any other server, such as the
# development server, starts the same watch here (``games`` handles the hook), in the
# background.
if not os.environ.get("SERVER_SOFTWARE", "").startswith("gunicorn/"):
    from config.hooks import web_process_started

    web_process_started()
