"""ext's `list --json` equals pi's own loader's view, for generated layouts and a corpus.

The oracle is pi's loader (`installer/host/loader.mjs`), never a re-implementation of its
rules. Each test builds all its layouts first and asks pi once per step (see
differential.py). Hypothesis draws a batch of layouts per example, derandomized and
without a database, so a run in CI is the run on a laptop; a failure lists every
layout that differs, with its files, the steps taken and the paths on each side.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from installer.host.lines import line_of
from installer.host.pi import HostInfo
from tests.conformance.differential import run_all_steps, views_of
from tests.conformance.layouts import Layout, corpus, layouts

pytestmark = pytest.mark.conformance

BATCH = 4  # layouts per example: pi is asked about all of them in one Node start


SAMPLED = ("install", "disable")  # the chains the whole SDK's loader is compared on


def _tree(layout: Layout) -> tuple[str, ...]:
    return tuple(sorted(layout.files))


def _check(found: list[str], count: int) -> None:
    assert not found, f"{len(found)} difference(s) over {count} layouts:\n" + "\n".join(found)


def test_the_corpus_lists_what_pi_loads(tmp_path: Path, pi_host: HostInfo) -> None:
    sets = corpus()
    run = run_all_steps(tmp_path, sets, pi_host)
    _check(run.differences, len(sets))
    # A refused install agrees with pi by loading nothing: register mode, which can express
    # any pi package, must not hide the corpus that way (only the empty set is refused).
    assert run.refused("register") == {"empty-set"}
    # Link mode refuses imports a link loses only where pi resolves them from the link.
    from_link = line_of(pi_host.version, pi_host.package).imports_from == "link"
    assert ("imports-out-of-folders" in run.refused("link")) == from_link
    # loader.mjs imports the modules of pi's SDK that define what it asks for, not the whole
    # SDK (half of its start on pi 1.6): the same answers as the SDK imported by its entry, on
    # the chains that leave items on and off (all eight took ~10 s of pi's loader per pi).
    asked = [(c, v) for c, v in zip(run.cases, run.views, strict=True) if c.chain in SAMPLED]
    env = {**os.environ, "EXT_LOADER_WHOLE_SDK": "1"}
    whole = views_of([c for c, _ in asked], pi_host, run.cwd, env)
    assert whole == tuple(v for _, v in asked)
    assert all(any(v.reals(k) for _, v in asked) for k in ("extension", "skill"))


@settings(
    max_examples=2,
    derandomize=True,
    database=None,
    # Shrinking would re-run whole batches; the report already names each failing layout.
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=(HealthCheck.function_scoped_fixture, HealthCheck.too_slow),
)
# unique_by: without it the first, simplest example is one layout BATCH times over.
@given(batch=st.lists(layouts(), min_size=BATCH, max_size=BATCH, unique_by=_tree))
def test_generated_layouts_list_what_pi_loads(
    tmp_path_factory: pytest.TempPathFactory, pi_host: HostInfo, batch: list[Layout]
) -> None:
    tmp = tmp_path_factory.mktemp("batch")
    _check(run_all_steps(tmp, batch, pi_host).differences, len(batch))
