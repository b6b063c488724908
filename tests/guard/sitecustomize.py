"""Loaded by every Python process a test starts (the guard puts this folder first on
PYTHONPATH): it watches that process for reads of the live archive as well."""

import live_content_watch

live_content_watch.watch()
