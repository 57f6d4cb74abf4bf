#!/bin/bash
# The streaming function (live progress, operations assistant): started by Lambda Web Adapter (/opt/bootstrap),
# which forwards each function-URL request to this server and streams the response back.
PYTHONPATH=$PYTHONPATH:/opt/python:$LAMBDA_RUNTIME_DIR exec python -m uvicorn --port="$PORT" --factory \
  skymarshal.api.streams:create_stream_app
