# paths.awk: norm(p), the one path normaliser of the awk programs here
# (awk -f scripts/lib/paths.awk -f PROGRAM).  Strips the worktree prefix
# in the variable src (when set) and folds "a/b/../c/./x" into "a/c/x", so
# a file reached through a Kbuild path (drivers/gpu/drm/amd/amdgpu/../amdkfd)
# has one name.
function norm(p,   n, i, k, q, s, x) {
	if (src != "" && index(p, src) == 1) p = substr(p, length(src) + 1)
	n = split(p, x, "/"); k = 0
	for (i = 1; i <= n; i++) if (x[i] == "..") k--; else if (x[i] != ".") q[++k] = x[i]
	s = q[1]; for (i = 2; i <= k; i++) s = s "/" q[i]
	return s
}
