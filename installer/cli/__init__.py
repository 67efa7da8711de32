"""The front door: declare (`grammar`), parse (`fast` for the everyday commands, `app` for
the rest), call (`calls`: the verb's options, its context, its result to installer.render),
run (`run`: the Output and the exit code).

Nothing here imports click on the everyday path: `entry.main` tries the hand parser first.
"""
