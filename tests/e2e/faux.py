"""A scripted model for the real pi, from pi's own model library (`registerFauxProvider`).

`faux_model.ts` is a test-only extension that registers the faux provider of
`@mariozechner/pi-ai` with pi; this class writes its script and reads back what
pi sent the model. No server, no network: the model lives inside pi's process.
"""

from __future__ import annotations

import json
from pathlib import Path

EXTENSION = Path(__file__).with_name("faux_model.ts")

Step = dict[str, str]  # {"bash": command} for a tool call, {"text": words} to finish


class FauxModel:
    """A script of model replies, and the pi flags and environment that play it."""

    def __init__(self, folder: Path, steps: list[Step]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.script = folder / "faux-script.json"
        self.log = folder / "faux-log.json"
        self.script.write_text(json.dumps(steps))
        self.log.unlink(missing_ok=True)

    @property
    def args(self) -> tuple[str, ...]:
        """pi's flags: load the faux provider and select its model."""
        return ("-e", str(EXTENSION), "--provider", "faux", "--model", "faux-model", "--offline")

    @property
    def env(self) -> dict[str, str]:
        """What the extension reads: the script, and where to log tool results."""
        return {"FAUX_SCRIPT": str(self.script), "FAUX_LOG": str(self.log)}

    def tool_results(self) -> list[str]:
        """The text of every tool result pi sent the model, in order."""
        if not self.log.exists():
            return []
        results: list[str] = json.loads(self.log.read_text())
        return results
