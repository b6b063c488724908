"""The archive's data model: pure Python, no Sphinx or docutils import."""
