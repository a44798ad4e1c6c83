"""The run command's pipeline flags are written from the settings' declarations."""

from overlapviz.commands.main import build_parser
from overlapviz.core.config.cli_flags import FLAG_FIELDS
from overlapviz.core.config.settings import SETTINGS


def _run_parser():
    commands = next(action for action in build_parser()._actions if action.choices and "run" in action.choices)
    return commands.choices["run"]


def test_every_setting_has_its_flag_and_its_destination_names_the_setting():
    destinations = {action.dest: action.option_strings for action in _run_parser()._actions}
    for setting in SETTINGS:
        dest = setting.flag.replace("-", "_")
        assert f"--{setting.flag}" in destinations[dest]
        assert FLAG_FIELDS[dest] == setting.name


def test_a_flag_not_given_leaves_the_preset_or_the_default():
    args = _run_parser().parse_args([])
    assert all(getattr(args, dest) is None for dest in FLAG_FIELDS)
