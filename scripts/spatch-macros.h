/*
 * Kernel macros Coccinelle 1.1.1 cannot parse as the kernel uses them:
 * statement-like guards and loops written as a macro call followed by a
 * statement or block.  scripts/scan hands this file to spatch
 * (--macro-file).  Without it spatch skips the whole function around such
 * a use, silently: on 7.3.4 it skipped vfio-pci's and nvgrace-gpu's huge
 * fault handlers (scoped_guard) and missed their casts, which sparse saw.
 * The scan also names any fault code spatch still cannot parse (see
 * scripts/lib/spatch-unparsed.awk): a missing macro here is a "could not
 * judge", never a silent miss.  Each macro gets the loop shape it has.
 */
#define scoped_guard(_name, args...) for (;;)
#define scoped_cond_guard(_name, _fail, args...) for (;;)
#define drm_exec_until_all_locked(exec) for (;;)
#define xe_validation_guard(_ctx, _val, _exec, _flags, _ret) for (;;)
#define for_each_vma_range(vmi, vma, end) while (1)
