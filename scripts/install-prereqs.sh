#!/usr/bin/env bash
# Installs what the test suite needs beyond a JDK 25 and Maven Central, from Debian's packages:
# npm (fetches the embedded ClickHouse engine), headless Chromium + chromedriver (browser tests),
# Jupyter with pandas/matplotlib (notebooks executed against a running caplab), Prometheus with node_exporter and
# process-exporter (the remote write IT, the exporter-recipe knee IT, the source-roles IT and LiveRunIT run them for
# real), Locust (LocustPluginIT and LiveRunIT drive the real tool; JMeter comes from Maven Central through the
# jmeter-home module) and iperf3 (a real -J report measured on loopback becomes a run's egress ceiling in
# CliIngestIT). LiveRunIT also pins its server with taskset (util-linux, always there).
# --check-or-install: install only what is missing (needs root or sudo); prints what it does.
set -euo pipefail

need=()
command -v npm >/dev/null || need+=(npm)
command -v openssl >/dev/null || need+=(openssl)
[[ -x /usr/bin/chromium ]] || need+=(chromium)
[[ -x /usr/bin/chromedriver ]] || need+=(chromium-driver)
[[ -x /usr/bin/jupyter-nbconvert || -x /usr/bin/jupyter ]] || need+=(jupyter-nbconvert jupyter-client python3-ipykernel)
/usr/bin/python3 -c 'import pandas, matplotlib' 2>/dev/null || need+=(python3-pandas python3-matplotlib)
[[ -x /usr/bin/prometheus ]] || need+=(prometheus)
[[ -x /usr/bin/prometheus-node-exporter ]] || need+=(prometheus-node-exporter)
[[ -x /usr/bin/prometheus-process-exporter ]] || need+=(prometheus-process-exporter)
command -v locust >/dev/null || need+=(python3-locust)
command -v iperf3 >/dev/null || need+=(iperf3)

if [[ ${#need[@]} -eq 0 ]]; then
  exit 0
fi
echo "install-prereqs: installing ${need[*]} from Debian" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-prereqs: need root to install ${need[*]}" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
