"""What every ``radar`` command returns: 0 done, 1 problems found, 2 a wrong command,
3 the network unavailable (a command that connects could resolve no host name); and the
line that says why a command stopped."""

from juju_radar.model.messages import _

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_OFFLINE = 0, 1, 2, 3


def command_error(message: str) -> str:
    """``radar: error: MESSAGE``, in the current language."""
    return _("radar: error: {message}").format(message=message)
