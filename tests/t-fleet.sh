#!/usr/bin/env bash
# The README's Fleet recipe run for real: profiles converted (map) and
# merged (reduce) under GNU parallel, locally with -j and on an ssh login
# to an sshd started here on 127.0.0.1 with throwaway keys; both must equal
# one process merging everything. usage: t-fleet.sh BUILDDIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
setup "$@"
d=$top/testdata/pprof2folded
sshd_pid=
stop_sshd() {
	[ -n "${ssh_cmd:-}" ] && $ssh_cmd -O exit 127.0.0.1 2>/dev/null
	[ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null && wait "$sshd_pid" 2>/dev/null
}
at_exit stop_sshd
plain_only "fleet recipe runs in the plain build only"
need parallel

# a fleet: three services, 40 hosts, from the real Go CPU captures
cd "$tmp" || exit 2
i=0
for svc in checkout search ads; do
	mkdir -p "fleet/$svc"
	for p in cpu.pb.gz labels.pb.gz merged.pb.gz cpu.pb; do
		for h in 1 2 3 4; do
			i=$((i + 1))
			[ $i -gt 40 ] && break
			cp "$d/$p" "fleet/$svc/host$i.pb"
		done
	done
done
find fleet -name '*.pb' | sort >all.list

# one process
pprof2folded --files-from all.list >/dev/null || exit 1
while read -r f; do pprof2folded "$f" >"${f%.pb}.folded"; done <all.list
find fleet -name '*.folded' | foldmerge --files-from - \
    --root-from-path '^fleet/(\w+)/' >one.folded
find fleet -name '*.folded' -delete

# map and reduce under parallel -j2, with a reduce tree of groups of 7
parallel --will-cite -j2 'pprof2folded {} > {.}.folded' <all.list
find fleet -name '*.folded' | sort |
    parallel --will-cite -j2 -N7 --pipe \
	'foldmerge --files-from - --root-from-path "^fleet/(\w+)/" > part.{#}.folded'
foldmerge part.*.folded >local.folded
cmp -s one.folded local.folded
verdict "fleet: parallel -j2 map and reduce tree equal one process" $?
[ -s one.folded ]
verdict "fleet: the merge is not empty" $?

# the README's Fleet recipe, run as written, on the same profiles
mkdir readme
while read -r f; do
	mkdir -p "readme/$(dirname "$f")"
	cp "$f" "readme/${f%.pb}.pb.gz"
done <all.list
awk '/^## Fleet/ { f = 1; next } f && /^    / { print substr($0, 5); n++; next }
    f && n { exit }' "$top/README.md" >readme/recipe.sh
(cd readme && sh recipe.sh >cost.txt 2>err.txt)
verdict "fleet: the README recipe runs" $?
cmp -s one.folded readme/fleet.folded
verdict "fleet: the README recipe's fleet.folded equals one process" $?
pprof2folded readme/default.pgo | cmp -s - <(pprof2folded --files-from all.list)
verdict "fleet: the README recipe's default.pgo holds every sample" $?
grep -q '(total)' readme/cost.txt && [ ! -s readme/err.txt ]
verdict "fleet: the README recipe's cost report" $?

# the same over ssh
need /usr/sbin/sshd openssh-server
need ssh-keygen openssh-client
[ "$(id -u)" -eq 0 ] || skip "not root: the ssh recipe is skipped"
ssh-keygen -q -t ed25519 -N '' -f host_key || exit 1
ssh-keygen -q -t ed25519 -N '' -f client_key || exit 1
cp client_key.pub authorized_keys
chmod 600 authorized_keys
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >sshd_config <<CONF
ListenAddress 127.0.0.1
Port $port
HostKey $tmp/host_key
AuthorizedKeysFile $tmp/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
PidFile none
# the remote shell counts as nested, so that bash does not read the
# account's ~/.bashrc, which may be slow or print
SetEnv SHLVL=1
CONF
mkdir -p /run/sshd
/usr/sbin/sshd -D -e -f "$tmp/sshd_config" 2>sshd.log &
sshd_pid=$!
# one connection for every command parallel runs (it runs several a job)
ssh_cmd="ssh -p $port -i $tmp/client_key -o StrictHostKeyChecking=no -o UserKnownHostsFile=$tmp/known_hosts -o BatchMode=yes -o LogLevel=ERROR -o ControlMaster=auto -o ControlPath=$tmp/cm-%C -o ControlPersist=60"
for _ in $(seq 600); do	# up to a minute on a loaded machine
	$ssh_cmd 127.0.0.1 true 2>/dev/null && break
	sleep 0.1
done
# map on the remote: each profile sent, converted there, its output
# returned; then the reduce there too, fed over ssh
find fleet -name '*.folded' -delete
# no --cleanup: with two jobs on one host in one work directory, one
# job's cleanup removes directories the other is filling (the trap
# removes them); on hosts of their own, add --cleanup
parallel --will-cite --ssh "$ssh_cmd" -S 127.0.0.1 --workdir "$tmp/remote" \
    --transferfile {} --return {.}.folded \
    "PATH=$b:\$PATH pprof2folded {} > {.}.folded" <all.list 2>ssh.err
find fleet -name '*.folded' | sort |
    parallel --will-cite --ssh "$ssh_cmd" -S 127.0.0.1 --pipe -N7 --workdir "$tmp" \
	"PATH=$b:\$PATH foldmerge --files-from - --root-from-path '^fleet/(\w+)/' > $tmp/sshpart.{#}.folded" 2>>ssh.err
foldmerge sshpart.*.folded >ssh.folded
cmp -s one.folded ssh.folded
r=$?
verdict "fleet: parallel --sshlogin map and reduce equal one process" $r
[ $r = 0 ] || sed 's/^/# /' ssh.err sshd.log | head -n 20
