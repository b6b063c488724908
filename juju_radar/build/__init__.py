"""The build machinery: the builder, the staged publish, caches and Sphinx-internals workarounds."""
