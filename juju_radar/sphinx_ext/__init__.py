"""The Sphinx extension: configuration, collector, directives, transforms, rendering."""
