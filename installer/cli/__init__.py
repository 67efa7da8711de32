"""The front door: declare (`grammar`), parse (`fast` for the everyday commands, `app` for
the rest), call (`calls`, `consent`), run (`run`: the Output and the exit code).

Nothing here imports click on the everyday path: `entry.main` tries the hand parser first.
"""
