"""Search: the Pagefind records, the reproducible bundle and the search page."""
