# print-flags.pl OUTDIR LIST (perl; LIST: the files to read, one per line):
# __print_flags() tables of fault codes, made readable for spatch.  A trace
# event prints its result with __print_flags(__entry->result, "|", TABLE),
# where TABLE is a macro of
# "{ VM_FAULT_X, "X" }" entries; each entry initializes the unsigned long
# mask of a struct trace_print_flags, so a vm_fault_t without a __force cast
# there is a finding (sparse reports it at the __print_flags line).
# spatch cannot parse the TRACE_EVENT around it, so for every such use this
# writes OUTDIR/pf-N.c, where each entry of the table is passed to an
# unsigned long parameter (the shape vm_fault_t.cocci's argument rule
# judges) -- and so is the value printed when it is a field the event
# declares as a vm_fault_t (__field(vm_fault_t, ret), f2fs's mmap events
# on 7.x) -- and prints
# "OUTDIR/pf-N.c|FILE|LINE|TABLE|DEFINED-IN|USE-LINE|VALUE-LINE" (the line
# of pf-N.c that passes the value, empty when the field is no vm_fault_t):
# scripts/scan points spatch's findings in pf-N.c back at FILE:LINE, the
# line of the trace event macro around the use (where sparse reports a
# diagnostic of its expansion).  Entries written through a
# helper ("#define H(flag, name) { (__force unsigned long)(flag), name }")
# are expanded first; a table of fault codes whose entries cannot be read
# is printed as "-|FILE|LINE|TABLE|DEFINED-IN|USE-LINE" (not judged, not
# clean).
use strict;
use warnings;

@ARGV == 2 or die "usage: print-flags.pl OUTDIR LIST\n";
my ($out, $list) = @ARGV;
open(my $lh, '<', $list) or die "print-flags.pl: $list: $!\n";
chomp(my @files = <$lh>);
close $lh;
my (%body, %where, %helper, @uses);
for my $file (@files) {
	open(my $fh, '<', $file) or die "print-flags.pl: $file: $!\n";
	my $src = do { local $/; <$fh> };
	close $fh;
	(my $joined = $src) =~ s/\\\n/ /g;
	# tables: "#define NAME { A, "a" }, ..." or "#define NAME H(A, "a"), ..."
	while ($joined =~ /^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(.*VM_FAULT_.*)$/mg) {
		next if index($2, '"') < 0;
		$body{$1} = $2;
		$where{$1} = $file;
	}
	# entry helpers: "#define H(flag, name) { (cast)(flag), name }"
	while ($joined =~ /^[ \t]*#[ \t]*define[ \t]+(\w+)\(\s*(\w+)\s*,\s*(\w+)\s*\)[ \t]+(\{.*\})[ \t]*$/mg) {
		$helper{$1} = [$2, $3, $4];
	}
	# uses: __print_flags(VALUE, "DELIM", TABLE), at the line sparse
	# reports them: that of the trace event macro around it (the outermost
	# expansion), else its own
	my @events;
	while ($src =~ /^[ \t]*(?:TRACE_EVENT\w*|DECLARE_EVENT_CLASS\w*|DEFINE_EVENT\w*)\s*\(/mg) {
		push @events, $-[0];
	}
	while ($src =~ /__print_flags\s*\(\s*([^,()]+(?:\([^()]*\)[^,()]*)*),\s*"[^"]*"\s*,\s*(\w+)\s*\)/g) {
		my ($at, $value, $name) = ($-[0], $1, $2);
		my ($ev) = grep { $_ < $at } reverse @events;
		my $line = 1 + (substr($src, 0, $ev // $at) =~ tr/\n//);
		my $own = 1 + (substr($src, 0, $at) =~ tr/\n//);
		# the value printed: a ring buffer field the event declares
		# as a vm_fault_t is itself a fault code in an unsigned long
		my $fault = 0;
		if (defined $ev && $value =~ /^\s*__entry\s*->\s*(\w+)\s*$/) {
			my $f = $1;
			$fault = substr($src, $ev, $at - $ev) =~ /__field\s*\(\s*vm_fault_t\s*,\s*\Q$f\E\s*\)/ ? 1 : 0;
		}
		push @uses, [$file, $line, $name, $own, $fault];
	}
}
# the entries of a table, its helpers expanded
sub entries {
	my $b = shift;
	for my $h (keys %helper) {
		my ($pf, $pn, $exp) = @{$helper{$h}};
		$b =~ s{\b\Q$h\E\s*\(\s*((?:[^(),]|\([^()]*\))+?)\s*,\s*("[^"]*")\s*\)}{
			my ($f, $n, $e) = ($1, $2, $exp);
			$e =~ s/\b\Q$pf\E\b/$f/g; $e =~ s/\b\Q$pn\E\b/$n/g; $e }ge;
	}
	my @e;
	while ($b =~ /\{\s*((?:[^{}",]|\([^()]*\))+?)\s*,\s*"[^"]*"\s*\}/g) {
		push @e, $1;
	}
	return @e;
}
my $n = 0;
for my $u (@uses) {
	my ($file, $line, $name, $own, $fault) = @$u;
	next unless defined $body{$name};
	my @e = entries($body{$name});
	# a table of fault codes whose entries cannot be read is not clean
	if (!@e) {
		print "-|$file|$line|$name|$where{$name}|$own\n";
		next;
	}
	$n++;
	my $c = "$out/pf-$n.c";
	open(my $fh, '>', $c) or die "print-flags.pl: $c: $!\n";
	print $fh "/* $file:$own: __print_flags(..., $name) */\n",
		"static void kq_print_flags_mask(unsigned long mask)\n{\n}\n\n",
		"static void kq_print_flags_table(void)\n{\n";
	print $fh "\tkq_print_flags_mask($_);\n" for @e;
	print $fh "}\n";
	# the value is passed on line 12 + entries of pf-N.c (written below)
	my $vline = $fault ? 12 + @e : '';
	print $fh "\nstatic void kq_print_flags_value(vm_fault_t value)\n{\n",
		"\tkq_print_flags_mask(value);\n}\n" if $fault;
	close $fh;
	print "$c|$file|$line|$name|$where{$name}|$own|$vline\n";
}
