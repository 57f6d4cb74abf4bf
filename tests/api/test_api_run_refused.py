"""A new run Step Functions will not start (its execution limit in AWS, the local AWS short of memory) reaches the
duty manager as 503 with the refusal's own line, not as an internal error."""

from __future__ import annotations

from botocore.exceptions import ClientError

from skymarshal.api.roles import Role

LINE = "local AWS is using 9.5 GB; finish or stop runs"


def test_a_refused_run_is_a_503_with_its_line(call, wf, monkeypatch):
    def refused(*args, **kwargs):
        raise ClientError({"Error": {"Code": "ExecutionLimitExceeded", "Message": LINE}}, "StartExecution")

    monkeypatch.setattr(wf, "start", refused)
    reply = call("POST", "/disruptions", Role.DUTY_MANAGER, body={"prompt": "Flight EY123 on 20 January: AOG"})
    assert (reply.status, reply.body["message"]) == (503, LINE)


def test_any_other_aws_error_stays_an_internal_error(call, wf, monkeypatch):
    def broken(*args, **kwargs):
        raise ClientError({"Error": {"Code": "AccessDeniedException", "Message": "no"}}, "StartExecution")

    monkeypatch.setattr(wf, "start", broken)
    reply = call("POST", "/disruptions", Role.DUTY_MANAGER, body={"prompt": "Flight EY123 on 20 January: AOG"})
    assert reply.status == 500 and "ClientError" in reply.body["message"] and "no" not in reply.body["message"]
