-- Two kernels x two runs of hand-made derived rows (times in ns); the
-- expected comparison is worked out by hand in t4010-compare-trace.sh.
INSERT INTO run (id, kernel, iteration, source_path, source_format, content_sha256,
		 first_ts_ns, last_ts_ns, event_count, loaded_at) VALUES
 (1, '6.1.0-base', 1, 'a1.dat', 'trace.dat', 'h1', 0, 10000000, 1, 'now'),
 (2, '6.1.0-base', 2, 'a2.dat', 'trace.dat', 'h2', 0, 10000000, 1, 'now'),
 (3, '6.1.0-patched', 1, 'b1.dat', 'trace.dat', 'h3', 0, 10000000, 1, 'now'),
 (4, '6.1.0-patched', 2, 'b2.dat', 'trace.dat', 'h4', 0, 10000000, 1, 'now');
INSERT INTO reclaim_stall (run_id, kind, pid, begin_ns, end_ns, duration_ns, complete) VALUES
 (1, 'direct', 100, 1000000, 2000000, 1000000, 1),
 (1, 'direct', 101, 2000000, 4000000, 2000000, 1),
 (1, 'direct', 102, 4000000, 7000000, 3000000, 1),
 (1, 'direct', 103, 5000000, 9000000, 4000000, 1),
 (1, 'direct', 104, 8000000, NULL, NULL, 0),
 (1, 'memcg', 105, 1000000, 2000000, 1000000, 0),
 (2, 'direct', 100, 1000000, 3000000, 2000000, 1),
 (2, 'direct', 101, 2000000, 8000000, 6000000, 1),
 (3, 'direct', 100, 1000000, 1500000, 500000, 1),
 (3, 'direct', 101, 2000000, 3500000, 1500000, 1),
 (4, 'direct', 100, 1000000, 2000000, 1000000, 1);
INSERT INTO task (run_id, pid, comm) VALUES (1, 50, 'kswapd0'), (1, 100, 'simoop');
-- mm_vmscan_lru_shrink_inactive's rows: shrinks without an isolate in lru_call
-- (the time in shrink_offset_ns, the cpu in shrink_cpu; README "Event tables")
INSERT INTO lru_call (run_id, shrink_offset_ns, shrink_cpu, pid, nid, shrink_nr_scanned,
		      nr_reclaimed) VALUES
 (1, 1500000, 0, 100, 0, 32, 16),	-- inside pid 100's stall: direct
 (1, 3500000, 0, 100, 0, 64, 64),	-- pid 100 outside a stall: neither
 (1, 8500000, 0, 104, 0, 8, 8),		-- inside 104's open-ended stall: direct
 (1, 1200000, 1, 50, 0, 100, 90),	-- kswapd0
 (1, 1500000, 2, 105, 0, 40, 10);	-- inside pid 105's (incomplete) memcg stall
INSERT INTO mm_vmscan_kswapd_wake (run_id, ts_ns, cpu, pid, nid, zid, "order") VALUES
 (1, 1000000, 1, 50, 0, 2, 0), (1, 4000000, 1, 50, 0, 2, 0);
INSERT INTO kswapd_cycle (run_id, nid, pid, wake_ns, last_activity_ns, sleep_ns, decision,
			  complete) VALUES
 (1, 0, 50, 1000000, 3000000, 3000000, 'full_sleep', 1),
 (1, 0, 50, 4000000, 5000000, NULL, 'nap_woken_early', 1);
INSERT INTO pgdat_flag (run_id, nid, flag, set_ns, clear_ns, rule, evidence) VALUES
 (1, 0, 'DIRTY', 0, 5000000, 'test', 'test'),
 (3, 0, 'DIRTY', NULL, 3000000, 'test', 'test'),
 (4, 0, 'DIRTY', 1000000, NULL, 'test', 'test');
