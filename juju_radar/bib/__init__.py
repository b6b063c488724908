"""BibTeX: checking the raw .bib text, the pybtex style, entries citing the archive."""
