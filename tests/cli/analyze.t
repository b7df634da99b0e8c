#!/bin/sh
# analyze: flight-recorder dumps (tests/data/flight, schema hcclctl-flight/1) merged across
# ranks: missing ranks, the first divergence, mismatches, the verdict, bad and cut-short dumps.
. "$(dirname "$0")/lib.sh"
D=tests/data/flight
JOB="job: comm 9f3a0c11d2e4b5a6, world size 4"
R0_WAIT="rank 0 (host node0, dumped on timeout): last done allreduce #40; running allreduce #41 (step 3, waiting for rank 3, sent 786432 and received 0 bytes of a 1048576-byte buffer)"
R1_WAIT="rank 1 (host node1, dumped on timeout): last done allreduce #40; running allreduce #41 (step 3, waiting for rank 0, sent 786432 and received 524288 bytes of a 1048576-byte buffer)"
R2_WAIT="rank 2 (host node2, dumped on timeout): last done allreduce #40; running allreduce #41 (step 3, waiting for rank 1, sent 786432 and received 524288 bytes of a 1048576-byte buffer)"
json_check() { # $1 python condition on d, $2 description
	printf '%s\n' "$OUT" >"$TMP/doc.json"
	python3 -c "import json,sys; d=json.load(open('$TMP/doc.json')); sys.exit(not ($1))"
	_report $? "$2" "$OUT"
}

run hcclctl analyze $D/ok/rank0.json $D/ok/rank1.json $D/ok/rank2.json $D/ok/rank3.json
check_rc 0 "all ranks agree and completed: exit 0"
check_out "$JOB
ranks present: 0-3 (4 of 4)
ranks missing: none
rank 0 (host node0, dumped on exit): last done allreduce #41; idle
rank 1 (host node1, dumped on exit): last done allreduce #41; idle
rank 2 (host node2, dumped on exit): last done allreduce #41; idle
rank 3 (host node3, dumped on exit): last done allreduce #41; idle
divergence: none
verdict: ok: 4 ranks agree up to allreduce #41 and completed every collective" "the job, each rank, no divergence, verdict ok"
check_err "" "nothing on stderr"

run hcclctl -q analyze $D/ok/rank3.json $D/ok/rank1.json $D/ok/rank0.json $D/ok/rank2.json
check_rc 0 "the order of the files does not matter"
check_out "$JOB
ranks present: 0-3 (4 of 4)
ranks missing: none
divergence: none
verdict: ok: 4 ranks agree up to allreduce #41 and completed every collective" "-q leaves out the idle ranks"

run hcclctl analyze $D/missing/rank0.json $D/missing/rank1.json $D/missing/rank2.json
check_rc 2 "a missing rank: exit 2"
check_out "$JOB
ranks present: 0,1,2 (3 of 4)
ranks missing: 3
$R0_WAIT
$R1_WAIT
$R2_WAIT
divergence: none
verdict: dead-rank: rank 3 left no readable dump (dead, or its dump was not given); ranks 0,1,2 wait in allreduce #41; rank 0 waits for it" "the missing rank, who waits and for whom"

run hcclctl analyze $D/behind/rank0.json $D/behind/rank1.json $D/behind/rank2.json $D/behind/rank3.json
check_rc 2 "a rank stuck behind: exit 2"
check_out "$JOB
ranks present: 0-3 (4 of 4)
ranks missing: none
$R0_WAIT
$R1_WAIT
$R2_WAIT
rank 3 (host node3, dumped on signal): last done allreduce #40; idle
divergence: rank 3 never started allreduce #41; ranks 0,1,2 wait in it
verdict: stuck-rank: rank 3 (host node3) never started allreduce #41 (its last: allreduce #40, done); ranks 0,1,2 wait in it" "the rank behind, where it stopped, who waits"

run hcclctl --json analyze $D/behind/rank0.json $D/behind/rank1.json $D/behind/rank2.json $D/behind/rank3.json
check_rc 2 "--json keeps the exit code"
json_check "d['world_size']==4 and d['ranks_present']==[0,1,2,3] and d['ranks_missing']==[] and d['divergence']['kind']=='progress' and d['divergence']['seq']==41 and d['divergence']['coll']=='allreduce' and d['divergence']['behind']==[3] and d['divergence']['ahead']==[0,1,2] and d['divergence']['waiting'] is True and d['verdict']=={'kind':'stuck-rank','rank':3,'host':'node3','message':'rank 3 (host node3) never started allreduce #41 (its last: allreduce #40, done); ranks 0,1,2 wait in it'} and d['status']=='FAIL' and d['exit_code']==2" "--json: divergence and verdict"
json_check "d['ranks'][0]['open'][0]['seq']==41 and d['ranks'][0]['open'][0]['peer']==3 and d['ranks'][0]['last_done']=={'seq':40,'coll':'allreduce'} and d['ranks'][3]['open']==[] and d['ranks'][3]['dumped_at_us']==1764500000900003" "--json: each rank's open collectives, exact microseconds"

run hcclctl analyze $D/count/rank0.json $D/count/rank1.json $D/count/rank2.json $D/count/rank3.json
check_rc 2 "a count mismatch: exit 2"
check_out_has "divergence: allreduce #41: called with different arguments: count: ranks 0,1,3 have 262144 (1048576 bytes), rank 2 has 131072 (524288 bytes)" "the field, both values with their ranks and sizes"
check_out_has "verdict: mismatch: rank 2 (host node2) called allreduce #41 with count 131072 (524288 bytes), ranks 0,1,3 with 262144 (1048576 bytes)" "the odd rank is the culprit"
check_out_has "rank 2 (host node2, dumped on error): last done allreduce #40; failed allreduce #41 (in the fingerprint exchange, sent 0 and received 0 bytes of a 524288-byte buffer)" "a collective that failed in the fingerprint exchange"

run hcclctl --json analyze $D/count/rank0.json $D/count/rank1.json $D/count/rank2.json $D/count/rank3.json
json_check "d['divergence']['kind']=='fingerprint' and d['divergence']['fields']==[{'field':'count','message':'count: ranks 0,1,3 have 262144 (1048576 bytes), rank 2 has 131072 (524288 bytes)','values':[{'value':'262144','bytes':1048576,'ranks':[0,1,3]},{'value':'131072','bytes':524288,'ranks':[2]}]}] and d['verdict']['kind']=='mismatch' and d['verdict']['rank']==2" "--json: the differing field with values and ranks"

run hcclctl -v analyze $D/dtype/rank0.json $D/dtype/rank1.json $D/dtype/rank2.json $D/dtype/rank3.json
check_rc 2 "a dtype mismatch: exit 2"
check_out_has "divergence: allreduce #40: called with different arguments: dtype: ranks 0,2,3 have fp32 (1048576 bytes), rank 1 has fp16 (524288 bytes)" "dtype: both values, sizes in bytes"
check_out_has "verdict: mismatch: rank 1 (host node1) called allreduce #40 with dtype fp16 (524288 bytes), ranks 0,2,3 with fp32 (1048576 bytes)" "the rank with the other dtype is named"

run hcclctl analyze $D/ok/rank0.json $D/ok/rank1.json $D/other-job/rank1.json
check_rc 2 "dumps of different jobs: exit 2"
check_out "verdict: config: the dumps come from 2 jobs: comm 9f3a0c11d2e4b5a6 in $D/ok/rank0.json, comm 0123456789abcdef in $D/other-job/rank1.json" "nothing is merged, the verdict says why"
check_err "hcclctl: analyze: dumps of different jobs: comm 9f3a0c11d2e4b5a6 (world size 4) in $D/ok/rank0.json and 1 more; comm 0123456789abcdef (world size 2) in $D/other-job/rank1.json
hint: analyze the dumps of one job together" "each job, its world size and files"

run hcclctl analyze $D/behind/rank0.json $D/behind/rank1.json $D/behind/rank2.json $D/truncated-rank3.json
check_rc 2 "a truncated dump: exit 2, the others are analyzed"
check_err "hcclctl: analyze: $D/truncated-rank3.json:4:231: truncated: unexpected end of input (was the rank killed while it was dumping?)" "located and called truncated"
check_out_has "unreadable dumps: $D/truncated-rank3.json" "listed as unreadable"
check_out_has "ranks missing: 3" "its rank counts as missing"

run hcclctl --json analyze $D/behind/rank0.json $D/truncated-rank3.json
json_check "d['unreadable']==[{'file':'$D/truncated-rank3.json','error':'$D/truncated-rank3.json:4:231: truncated: unexpected end of input (was the rank killed while it was dumping?)'}] and d['ranks_missing']==[1,2,3] and d['verdict']['kind']=='dead-rank' and d['verdict']['rank']==1 and d['verdict']['host'] is None" "--json: unreadable files, missing ranks"

run hcclctl analyze $D/garbage.json
check_rc 3 "garbage only: exit 3"
check_err "hcclctl: analyze: $D/garbage.json:1:1: not JSON: expected a value, found byte 0x7f
hcclctl: analyze: no dump could be read (1 given)
hint: pass the flight-recorder dumps of the job's ranks" "located, and no dump could be read"
check_out "" "nothing on stdout"

run hcclctl --json analyze $D/garbage.json $D/empty-file.json
check_rc 3 "--json: exit 3"
json_check "d['exit_code']==3 and d['error']['where']=='analyze'" "--json: an error document"

run hcclctl analyze $D/empty-file.json "$TMP/no-such.json"
check_rc 3 "an empty file and a missing one: exit 3"
check_err_has "hcclctl: analyze: $D/empty-file.json: empty: no dump was written (was the rank killed before it dumped?)" "an empty file is named as such"
check_err_has "hcclctl: analyze: cannot open '$TMP/no-such.json': No such file or directory" "a missing file"

for f in bad-seq:"4:11: records[1].seq: expected an integer, found a string" \
	bad-order:"4:11: records[1].seq: 38 after 39 in records[0]: sequence numbers must grow" \
	bad-rank:"1:40: rank: 4 is out of range [0, 3]" \
	bad-schema:'1:12: schema: "hcclctl-flight/2" is not supported (this hcclctl reads "hcclctl-flight/1")' \
	bad-missing-state:'4:3: records[1]: missing "state"'; do
	name=${f%%:*}
	run hcclctl analyze $D/behind/rank0.json $D/$name.json
	check_err "hcclctl: analyze: $D/$name.json:${f#*:}" "$name: located message"
	check_rc 2 "$name: exit 2 when another dump was read"
done

run hcclctl analyze $D/empty/rank0.json $D/empty/rank1.json
check_rc 0 "empty records on every rank: exit 0"
check_out "job: comm 9f3a0c11d2e4b5a6, world size 2
ranks present: 0,1 (2 of 2)
ranks missing: none
rank 0 (host node0, dumped on signal): no collective done; idle
rank 1 (host node1, dumped on signal): no collective done; idle
divergence: none
verdict: ok: 2 ranks agree; no collective recorded" "nothing recorded, nothing wrong"

run hcclctl analyze $D/empty-one/rank0.json $D/empty-one/rank1.json
check_rc 2 "one rank with an empty records list: exit 2"
check_out_has "divergence: rank 1 never started allreduce #1; rank 0 reached it" "it never started the first collective of the others"
check_out_has "verdict: stuck-rank: rank 1 (host node1) never started allreduce #1 (it recorded no collective); rank 0 reached it" "and is the culprit"

run hcclctl analyze $D/p2p-ok/rank0.json $D/p2p-ok/rank1.json
check_rc 0 "send/recv pairs that match: exit 0"

run hcclctl analyze --tail 2 $D/p2p/rank0.json $D/p2p/rank1.json
check_rc 2 "a send whose recv was never posted: exit 2"
check_out "job: comm 9f3a0c11d2e4b5a6, world size 2
ranks present: 0,1 (2 of 2)
ranks missing: none
rank 0 (host node0, dumped on timeout): no collective done; running send #3 to rank 1 (step 0, waiting for rank 1, sent 0 and received 0 bytes of a 4096-byte buffer)
  send #2 to rank 1: count 1024 fp32: done (step 0, peer -1, sent 6144 and received 6144 bytes of a 4096-byte buffer), 4000 us
  send #3 to rank 1: count 1024 fp32: running (step 0, peer 1, sent 0 and received 0 bytes of a 4096-byte buffer)
rank 1 (host node1, dumped on timeout): no collective done; idle
  send #1 to rank 0: count 1024 fp32: done (step 0, peer -1, sent 6144 and received 6144 bytes of a 4096-byte buffer), 4000 us
  recv #2 from rank 0: count 1024 fp32: done (step 0, peer -1, sent 6144 and received 6144 bytes of a 4096-byte buffer), 4000 us
divergence: rank 1 never posted recv #3 from rank 0; rank 0 waits in send #3 to rank 1
verdict: stuck-rank: rank 1 (host node1) never posted recv #3 from rank 0; rank 0 (host node0) waits in it" "pairwise: rank 0's send #3 against rank 1's recvs from rank 0; --tail lists records"

run hcclctl analyze $D/p2p-count/rank0.json $D/p2p-count/rank1.json
check_rc 2 "send and recv with different counts: exit 2"
check_out_has "divergence: send #2 from rank 0 to rank 1: count: rank 0 sends 1024 (4096 bytes), rank 1 receives 512 (2048 bytes)" "both counts and sizes"
check_out_has "verdict: mismatch: rank 0 (host node0) sends 1024 fp32 (4096 bytes) in send #2 to rank 1 (host node1), which receives 512 fp32 (2048 bytes)" "the pair is named"

run hcclctl analyze $D/stall/rank0.json $D/stall/rank1.json $D/stall/rank2.json $D/stall/rank3.json
check_rc 2 "every rank in the same collective, none finished: exit 2"
check_out_has "divergence: none" "no divergence"
check_out_has "verdict: stuck-rank: rank 3 (host node3) is the rank the others wait on: ranks 0,1,2 wait for it, rank 0 in allreduce #41 at step 3 with 0 bytes received of a 1048576-byte buffer" "the rank waited on is named"

run hcclctl analyze $D/ok/rank0.json $D/ok/rank1.json $D/ok/rank2.json $D/ok/rank3.json $D/ok/rank2.json
check_rc 0 "a dump given twice is used once"
check_err "hcclctl: analyze: warning: rank 2 has two dumps, $D/ok/rank2.json and $D/ok/rank2.json; using the newer, $D/ok/rank2.json" "with a warning"

run hcclctl analyze - <$D/ok/rank0.json
check_rc 2 "a dump on stdin; three ranks missing: exit 2"
check_out_has "ranks missing: 1,2,3" "the others are missing"

run hcclctl analyze
check_rc 64 "no dump: usage error"
run hcclctl analyze --tail x $D/ok/rank0.json
check_rc 64 "a bad --tail: usage error"

done_testing
