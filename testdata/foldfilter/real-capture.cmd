foldfilter --root-at '^process_request$' --hide '^(asm_|irqentry_|sysvec_|__irq_exit_rcu$)' --min-share 0.5% capture.folded
