#!/bin/sh
# runc, with process.rlimits dropped from the OCI bundle's config.json first: this VM refuses every
# setrlimit inside a container, and runc would fail to start one otherwise. Tests only: the image and
# the Dockerfile are unchanged, a real host runs runc itself.
bundle=
prev=
for arg in "$@"; do
  case "$prev" in --bundle | -b) bundle=$arg ;; esac
  case "$arg" in --bundle=*) bundle=${arg#--bundle=} ;; esac
  prev=$arg
done
if [ -n "$bundle" ] && [ -f "$bundle/config.json" ]; then
  jq 'del(.process.rlimits)' "$bundle/config.json" >"$bundle/config.json.tmp" && mv "$bundle/config.json.tmp" "$bundle/config.json"
fi
exec runc "$@"
