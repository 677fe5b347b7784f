"""The command line: ``python -m pylayer <command> ...``.

``run`` runs a Paddle script (or ``-m module``) on pylayer unchanged;
``check`` checks a custom PyLayer with :func:`pylayer.autograd.opcheck`;
``migration [NAME]`` says what pylayer has of Paddle's API (of a namespace or a
name) and why a name it lacks is not supported.
``python -m pylayer <command> --help`` describes each.
"""
import importlib
import sys

COMMANDS = {
    "run": ("pylayer.compat", "run a Paddle script or module on pylayer, unchanged"),
    "check": ("pylayer.autograd.opcheck", "check a custom PyLayer (gradients, contract, hooks)"),
    "migration": ("pylayer._paddle_api", "what pylayer has of Paddle's API, and why a name is "
                                        "not supported"),
}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m pylayer <command> [arguments]\n\ncommands:")
        for name, (_, text) in COMMANDS.items():
            print(f"  {name:<8}{text}")
        return 0 if argv else 2
    if argv[0] not in COMMANDS:
        print(f"python -m pylayer: unknown command {argv[0]!r}; the commands are "
              f"{', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[argv[0]][0])
    return module._command_line(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
