"""What every ``radar`` command returns: 0 done, 1 problems found, 2 a wrong command,
3 the network unavailable (a command that connects could resolve no host name), 141 its
output's reader gone (``radar refs missing | head -1``: 128 + SIGPIPE, as a shell
reports any command a closed pipe stopped); and the line that says why a command
stopped."""

from juju_radar.model.messages import _

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_OFFLINE = 0, 1, 2, 3
EXIT_CLOSED_PIPE = 141


def command_error(message: str) -> str:
    """``radar: error: MESSAGE``, in the current language."""
    return _("radar: error: {message}").format(message=message)
