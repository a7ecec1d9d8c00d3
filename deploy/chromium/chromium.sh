#!/usr/bin/env bash
# Debian's Chromium and its driver, for the web app's browser tests (tests/e2e/web).
#
#   deploy/chromium/chromium.sh ensure   install `chromium` and `chromium-driver` from Debian's packages when
#                                        absent; prints the browser's and the driver's paths, one a line
#
# No browser is downloaded from anywhere else: the tests drive this Chromium through this chromedriver, named
# explicitly, so selenium's own manager never fetches one.
set -euo pipefail

say() { echo "chromium.sh: $*" >&2; }
die() { echo "chromium.sh: error: $*" >&2; exit 1; }

browser() { command -v chromium || command -v chromium-browser || true; }
driver() { command -v chromedriver || { [[ -x /usr/lib/chromium/chromedriver ]] && echo /usr/lib/chromium/chromedriver; } || true; }

install_packages() {
    [[ "$(id -u)" == 0 ]] || die "Chromium is not installed; install it (Debian: sudo apt-get install -y chromium chromium-driver)"
    command -v apt-get >/dev/null 2>&1 || die "Chromium is not installed and there is no apt-get; install chromium and its chromedriver"
    say "installing Chromium from Debian's packages (apt-get install -y chromium chromium-driver)"
    local rc=0 tries=0
    # another apt run (a second test session) may hold the lock: wait for it rather than fail
    until { DEBIAN_FRONTEND=noninteractive apt-get update -q && \
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver; } \
          >"/tmp/pokeraudit-apt-chromium.log" 2>&1; do
        rc=$?
        tries=$((tries + 1))
        if (( tries >= 30 )) || ! grep -q "Could not get lock\|Unable to acquire" /tmp/pokeraudit-apt-chromium.log; then
            tail -n 20 /tmp/pokeraudit-apt-chromium.log >&2
            die "apt-get install chromium chromium-driver failed (exit $rc; see /tmp/pokeraudit-apt-chromium.log)"
        fi
        sleep 10
    done
}

case "${1:-}" in
    ensure)
        if [[ -z "$(browser)" || -z "$(driver)" ]]; then
            install_packages
        fi
        [[ -n "$(browser)" ]] || die "chromium is still not on PATH after installing it"
        [[ -n "$(driver)" ]] || die "chromedriver is still not on PATH after installing chromium-driver"
        browser
        driver
        ;;
    *)
        echo "usage: $0 ensure" >&2
        exit 2
        ;;
esac
