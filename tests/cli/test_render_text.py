"""The CLI prints data as written: a plan id like divert:MAN:180 is not Rich emoji markup (it printed "divert👨180"),
and "[bold]" in a comment is not markup."""

from __future__ import annotations

from skymarshal.cli.render import Progress


def test_a_note_prints_a_plan_id_and_brackets_as_written(capsys):
    Progress().note("approve divert:MAN:180 [bold]now[/bold] :smile:")
    err = capsys.readouterr().err
    assert "divert:MAN:180 [bold]now[/bold] :smile:" in err and "👨" not in err and "😄" not in err
