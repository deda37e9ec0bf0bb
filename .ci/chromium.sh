#!/usr/bin/env bash
# Headless Chromium for the browser test (tests/test_web_browser.py): Debian's packages.
# Playwright drives /usr/bin/chromium; its own browser download is not used. Safe to run again.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver >&2
fi
/usr/bin/chromium --version >&2
