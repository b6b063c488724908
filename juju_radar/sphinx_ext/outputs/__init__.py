"""The Sphinx side of the outputs: the handlers that hand the pure writers of
``juju_radar.outputs`` what the build knows, and write their files."""
