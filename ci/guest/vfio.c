// SPDX-License-Identifier: GPL-2.0
/*
 * vfio-pci fault path: bind QEMU's edu device (1234:11e8) to vfio-pci in
 * no-IOMMU mode, mmap BAR0 and touch it, so the first access faults
 * through vfio-pci's mmap fault handler; check the registers answer as
 * the edu device documents (identification, inverting liveness check).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/types.h>
#include <linux/vfio.h>

#include "kselftest_harness.h"
#include "kq.h"

#define PCI	"/sys/bus/pci/devices"

static int read_hex(const char *dev, const char *attr)
{
	char path[256], buf[32] = "";
	int fd, n;

	snprintf(path, sizeof(path), PCI "/%s/%s", dev, attr);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? (int)strtol(buf, NULL, 16) : -1;
}

/* One 32-bit register access each: no merging, no caching in registers. */
static __u32 mmio_read(__u32 *bar, int reg)
{
	return __atomic_load_n(&bar[reg], __ATOMIC_RELAXED);
}

static void mmio_write(__u32 *bar, int reg, __u32 val)
{
	__atomic_store_n(&bar[reg], val, __ATOMIC_RELAXED);
}

/* The PCI address of the edu device, or "" */
static void find_edu(char *bdf, size_t size)
{
	struct dirent *d;
	DIR *dir = opendir(PCI);

	bdf[0] = '\0';
	if (!dir)
		return;
	while ((d = readdir(dir)))
		if (read_hex(d->d_name, "vendor") == 0x1234 &&
		    read_hex(d->d_name, "device") == 0x11e8)
			snprintf(bdf, size, "%s", d->d_name);
	closedir(dir);
}

TEST(edu_bar0_mmap_faults_through_vfio_pci)
{
	struct vfio_group_status gs = { .argsz = sizeof(gs) };
	struct vfio_region_info ri = { .argsz = sizeof(ri) };
	char bdf[256], path[512], link[256];
	int container, group, dev;
	__u32 *bar;
	ssize_t n;

	find_edu(bdf, sizeof(bdf));
	ASSERT_NE(0, bdf[0]) TH_LOG("no edu device (1234:11e8) on the PCI bus");
	/* new_id binds every unbound matching device to vfio-pci */
	ASSERT_EQ(0, kq_write("/sys/bus/pci/drivers/vfio-pci/new_id", "1234 11e8"));
	snprintf(path, sizeof(path), PCI "/%s/iommu_group", bdf);
	n = readlink(path, link, sizeof(link) - 1);
	ASSERT_LT(0, n) TH_LOG("%s has no iommu_group: vfio-pci did not bind", bdf);
	link[n] = '\0';
	snprintf(path, sizeof(path), "/dev/vfio/noiommu-%s", basename(link));

	container = open("/dev/vfio/vfio", O_RDWR);
	ASSERT_LE(0, container);
	ASSERT_EQ(VFIO_API_VERSION, ioctl(container, VFIO_GET_API_VERSION));
	ASSERT_EQ(1, ioctl(container, VFIO_CHECK_EXTENSION, VFIO_NOIOMMU_IOMMU));
	group = open(path, O_RDWR);
	ASSERT_LE(0, group) TH_LOG("open %s: %s", path, strerror(errno));
	ASSERT_EQ(0, ioctl(group, VFIO_GROUP_GET_STATUS, &gs));
	ASSERT_TRUE(!!(gs.flags & VFIO_GROUP_FLAGS_VIABLE));
	ASSERT_EQ(0, ioctl(group, VFIO_GROUP_SET_CONTAINER, &container));
	ASSERT_EQ(0, ioctl(container, VFIO_SET_IOMMU, VFIO_NOIOMMU_IOMMU));
	dev = ioctl(group, VFIO_GROUP_GET_DEVICE_FD, bdf);
	ASSERT_LE(0, dev) TH_LOG("VFIO_GROUP_GET_DEVICE_FD: %s", strerror(errno));

	ri.index = VFIO_PCI_BAR0_REGION_INDEX;
	ASSERT_EQ(0, ioctl(dev, VFIO_DEVICE_GET_REGION_INFO, &ri));
	ASSERT_TRUE(!!(ri.flags & VFIO_REGION_INFO_FLAG_MMAP));
	ASSERT_LE(4096ULL, ri.size);
	bar = mmap(NULL, ri.size, PROT_READ | PROT_WRITE, MAP_SHARED, dev, ri.offset);
	ASSERT_NE(MAP_FAILED, bar) TH_LOG("mmap BAR0: %s", strerror(errno));
	/* the first access faults the BAR page in */
	EXPECT_EQ(0xedu, mmio_read(bar, 0) & 0xff)
		TH_LOG("identification %#x", mmio_read(bar, 0));
	mmio_write(bar, 1, 0x12345678);
	EXPECT_EQ(~0x12345678u, mmio_read(bar, 1));
	munmap(bar, ri.size);
	close(dev);
	close(group);
	close(container);
}

TEST_HARNESS_MAIN
