#!/usr/bin/env bash
# load --flag-clear LABEL=RULE with --kernel K: every run of the load is
# labelled K, so a LABEL other than K (a typo: 6.1-pacthed) can give no run
# its rule.  Before, the load went through and every run silently took its
# release's rule; now it is a usage error (exit 2) and nothing is loaded.
. "$(dirname "$0")/lib.sh"

trace() {
	printf "     kswapd0-51    [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0\n"
	printf "     kswapd0-51    [000] .....     1.500000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=32 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n"
	printf "     kswapd0-51    [000] .....     2.000000: mm_vmscan_kswapd_sleep: nid=0\n"
}

test_expect_success 'a --flag-clear label that is not --kernel: exit 2, nothing loaded' '
	trace >a.txt &&
	test_expect_code 2 "$VR" load -q -d db -k 6.1-patched --flag-clear 6.1-pacthed=balanced-check a.txt 2>err &&
	grep -q "no run of this load is labelled 6.1-pacthed" err && test ! -e db &&
	: the label it names, and one without a label, still load &&
	"$VR" load -q -d db -k 6.1-patched --flag-clear 6.1-patched=balanced-check a.txt &&
	test "$(sqlite3 db "SELECT substr(detail, 1, 14) FROM run_quality WHERE item = \"pgdat_flag_clear_rule\"")" = balanced-check &&
	"$VR" load -q -d db2 -k 6.1-patched --flag-clear balanced-check a.txt &&
	test "$(sqlite3 db2 "SELECT substr(detail, 1, 14) FROM run_quality WHERE item = \"pgdat_flag_clear_rule\"")" = balanced-check
'

test_done
