"""`cyclekit table`: the instruction table of the CPU it runs on (issue 21).

forms (LLVM's forms from llvm-exegesis, split into init and body), classify
(what can run here, and why not), bodies (the latency chain and the
throughput set as benchmark files), measure (a batch through one hosted
`serve` session), model (llvm-mca's values) and output (JSON, CSV, HTML).
"""
