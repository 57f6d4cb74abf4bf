"""The seeded-airline guard's comparison: rows added, removed and changed are named; a row re-encoded after a read
(the same attributes in another order, or compressed) is not a change."""

from __future__ import annotations

import zlib

from account_guard import changes

ROW = '{"flight_id": {"S": "F1"}, "status": {"S": "SCHEDULED"}}'
REORDERED = '{"status": {"S": "SCHEDULED"}, "flight_id": {"S": "F1"}}'


def test_a_row_re_encoded_with_the_same_attributes_is_no_change():
    before = {"flights": {("F1", None): ROW}}
    assert changes(before, {"flights": {("F1", None): REORDERED}}) == []
    assert changes(before, {"flights": {("F1", None): zlib.compress(ROW.encode(), 1)}}) == []


def test_added_removed_and_changed_rows_are_named_per_table():
    before = {"flights": {("F1", None): ROW, ("F2", None): ROW}}
    after = {"flights": {("F1", None): ROW.replace("SCHEDULED", "DELAYED"), ("F3", None): ROW}}
    assert changes(before, after) == ["flights: 1 added, 1 removed, 1 changed (F1, F3, F2)"]
