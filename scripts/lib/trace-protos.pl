# trace-protos.pl HEADER... (perl -0777 -n): the prototype of every trace
# event the headers define (TRACE_EVENT*, DEFINE_EVENT*), one argument per
# line: "EVENT INDEX TYPE" (INDEX from 0, the argument's name dropped).
# scripts/scan reads it to tell which trace_<event>() argument a vm_fault_t
# is passed to, and whether that argument is declared vm_fault_t.
while (/\b(?:TRACE_EVENT\w*|DEFINE_EVENT\w*)\s*\(\s*(\w+)\s*,\s*(?:(\w+)\s*,\s*)?TP_PROTO\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)/g) {
	my ($name, $args) = (defined $2 ? $2 : $1, $3);
	my $i = 0;
	for my $a (split /,/, $args) {
		$a =~ s/^\s+|\s+$//g; $a =~ s/\s+/ /g; $a =~ s/\s*\w+$//;
		print "$name $i $a\n"; $i++;
	}
}
