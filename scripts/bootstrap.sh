#!/usr/bin/env bash
# Installs the system packages Sluice needs when they are missing (Debian 12). Run as root, or it only
# says what is missing. Usage: scripts/bootstrap.sh [--with-bench]
#   ffmpeg, ffprobe  media: every remux, transcode and test source
#   python3, make, g++  node-gyp builds better-sqlite3 (the session log) from source in `npm ci`
#   chromium         end-to-end tests of the console (Playwright drives Debian's build)
#   tstools          tests only: tsreport checks PCR/DTS order and continuity of Sluice's MPEG-TS
#   nginx + rtmp, wrk  only with --with-bench: the reference servers of bench/
set -euo pipefail

need=()
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
# The support SSH access of the Log upload page runs `ssh -N -R` (diagnostics/ssh-tunnel.ts; its test too).
command -v ssh >/dev/null 2>&1 || need+=(openssh-client)
for tool in python3 make g++; do command -v "$tool" >/dev/null 2>&1 || need+=("$tool"); done
if [ "${1:-}" = "--with-bench" ] || [ "${SLUICE_BOOTSTRAP_TEST:-}" = 1 ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium fonts-liberation)
  command -v tsreport >/dev/null 2>&1 || need+=(tstools)
  # Tests only: GStreamer is the second RTSP client nobody here wrote (rtspsrc plays, rtspclientsink
  # publishes, avdec_h264 decodes); rtsp-clients.test.ts runs it.
  command -v gst-launch-1.0 >/dev/null 2>&1 || need+=(gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-rtsp gstreamer1.0-libav)
  # Tests only: pebble is Let's Encrypt's ACME test CA; letsencrypt.test.ts and the certificate e2e
  # order real certificates from it (HTTP-01 checked on the server's HTTP port).
  command -v pebble >/dev/null 2>&1 || need+=(pebble)
  # Tests only: promtool (Debian's prometheus package) is Prometheus's own parser and linter of the
  # text format; pulse-metrics.test.ts runs `promtool check metrics` on a scrape of GET /metrics.
  command -v promtool >/dev/null 2>&1 || need+=(prometheus)
  # Bench reference: nginx with the RTMP module (hls on) is what Sluice's RTMP ingest is measured
  # beside in bench/media-ingest.mjs rtmp (CPU and memory per stream, publish → first segment).
  [ -e /usr/lib/nginx/modules/ngx_rtmp_module.so ] || need+=(nginx libnginx-mod-rtmp)
  # Tests and bench: etcd holds the cluster ingest leases in coordinated mode (cluster_etcd);
  # cluster-ingest-etcd.test.ts and bench/cluster failover start a real one on loopback ports.
  command -v etcd >/dev/null 2>&1 || need+=(etcd-server)
  # Tests only: Net-SNMP's snmpget/snmpwalk are the SNMP client nobody here wrote; snmp.test.ts asks
  # the `snmp` port with them.
  command -v snmpget >/dev/null 2>&1 || need+=(snmp)
  # Tests only: a real sshd is the support host of the SSH access; support-ssh-tunnel.test.ts starts
  # an unprivileged one on a loopback port and checks the server's `ssh -R` tunnel through it.
  [ -x /usr/sbin/sshd ] || need+=(openssh-server)
fi
if [ "${1:-}" = "--with-bench" ]; then
  command -v nginx >/dev/null 2>&1 || need+=(nginx-light libnginx-mod-rtmp)
  command -v wrk >/dev/null 2>&1 || need+=(wrk)
fi
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
  echo "missing system packages: ${need[*]} — install them (apt-get install ${need[*]}) or run this as root" >&2
  exit 1
fi
echo "installing system packages: ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
