"""The command line: ``overlapviz`` starts the app; ``run``, ``bandwidth``, ``devices`` and ``presets`` work without it.

One module per subcommand, each with one ``add_*`` function that builds its parser and one
``*_command`` function that runs it; `overlapviz.commands.main` puts them together. Bad input
is one line on stderr starting ``overlapviz: error:`` and exit code 2; a backend that fails is
the same line with exit code 1; never a traceback.

``render``, ``run --png`` and ``profile --png`` draw pictures with the app's own drawing code,
offscreen (`overlapviz.commands.pictures`), and the app itself starts from
`overlapviz.commands.app`: those two are the commands' only ways into Qt, and they import it
only when asked, so everything else runs without it.
"""
