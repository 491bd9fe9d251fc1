"""Where Connect Four meets its users: the ``gridgames connect4`` commands (`cli`, and `cli_book`, `cli_drill`,
`cli_explain`, `cli_review` for the subcommands, `terminal` for the consoles they share), the fresh process's quick
answer that runs before typer is imported (`quick`), the hooks of ``gridgames serve`` (`web`), and pictures: the
terminal's (`render`), SVG (`svg`) and shareable URLs of a position (`share`).
"""
