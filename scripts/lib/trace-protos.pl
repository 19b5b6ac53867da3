# trace-protos.pl HEADER... (perl -0777 -n): the prototype of every trace
# event the headers define (TRACE_EVENT*, DEFINE_EVENT*), one argument per
# line: "EVENT INDEX TYPE" (INDEX from 0, the argument's name dropped).
# An event defined through a wrapper macro of the header
# ("#define DEFINE_X_EVENT(name) DEFINE_EVENT(class, name, TP_PROTO(...))",
# then "DEFINE_X_EVENT(dax_pte_fault);") gets the wrapper's prototype.
# scripts/scan reads it to tell which trace_<event>() argument a vm_fault_t
# is passed to, and whether that argument is declared vm_fault_t.
my $src = $_;
$src =~ s/\\\n/ /g;
my $proto = qr/TP_PROTO\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)/;
my %wrap;
sub emit_proto {
	my ($name, $args) = @_;
	my $i = 0;
	for my $a (split /,/, $args) {
		$a =~ s/^\s+|\s+$//g; $a =~ s/\s+/ /g; $a =~ s/\s*\w+$//;
		print "$name $i $a\n"; $i++;
	}
}
# Wrapper macros: the event's name is one of the macro's parameters.
while ($src =~ /^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)[ \t]+(?:TRACE_EVENT\w*|DEFINE_EVENT\w*)\s*\(\s*(\w+)\s*,\s*(?:(\w+)\s*,\s*)?$proto/mg) {
	my ($macro, $params, $first, $second, $args) = ($1, $2, $3, $4, $5);
	my $ev = defined $second ? $second : $first;
	my @p = map { s/^\s+|\s+$//gr } split /,/, $params;
	my ($idx) = grep { $p[$_] eq $ev } 0 .. $#p;
	$wrap{$macro} = [$idx, $args] if defined $idx;
}
while ($src =~ /\b(?:TRACE_EVENT\w*|DEFINE_EVENT\w*)\s*\(\s*(\w+)\s*,\s*(?:(\w+)\s*,\s*)?$proto/g) {
	emit_proto(defined $2 ? $2 : $1, $3);
}
for my $macro (keys %wrap) {
	my ($idx, $args) = @{$wrap{$macro}};
	while ($src =~ /^[ \t]*\Q$macro\E\s*\(([^()]*)\)\s*;/mg) {
		my @a = map { s/^\s+|\s+$//gr } split /,/, $1;
		emit_proto($a[$idx], $args) if defined $a[$idx] && $a[$idx] =~ /^\w+$/;
	}
}
