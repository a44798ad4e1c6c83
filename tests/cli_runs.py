"""Running the command line in-process, as the CLI tests do."""

from overlapviz.commands.main import main


def run_cli(capsys, *argv):
    """(exit code, stdout, stderr) of ``overlapviz ARGV...`` (paths may be given as Path)."""
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err
