/* vm.c: the QEMU back end.
 *
 * qemu-system-x86_64 boots the image's kernel and initrd directly (no boot
 * loader) with the image's ext4 root disk on virtio, read-only (the image
 * stays as built, and several runs may share it).  /sbin/ipclab-init
 * (guest-init.sh) is PID 1.  Two 9p shares carry the rest: ipclab-in,
 * read-only, a temporary directory with copies of the binary and the
 * experiment, the command line and the environment; ipclab-out, the
 * staging directory, where results and the exit status come back.  The
 * serial console goes to console.log.  No network device at all: the
 * guest has loopback only.  -no-reboot and panic=-1 turn a guest crash
 * into a qemu exit rather than a hang.
 */
#include "env-internal.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define VM_MEMORY "2048"

#define VM_MODEL_BOOT_S 25.0 /* boot of the image's kernel (TCG: 24 s here) */
#define VM_MODEL_TCG 10.0    /* a VM's slowdown emulated (env-cost: 30.5 s against 2.8 s) */
#define VM_MODEL_KVM 1.2     /* ... under KVM */

/* What guest-init.sh prints first on the console. */
#define VM_GUEST_MARKER "ipclab-guest: ["

static guint vm_startup_s(const EnvRun *run)
{
        return run->kvm ? 120 : 600;
}

static char *qemu_path(void)
{
        return g_find_program_in_path("qemu-system-x86_64");
}

static const char *vm_tools_unavailable(void)
{
        g_autofree char *q = qemu_path();
        if (q == NULL)
                return "qemu-system-x86_64 not found: apt-get install qemu-system-x86";
        return NULL;
}

/* Can this process run a stock kernel under KVM?  /dev/kvm must create a
 * VM, and be backed by hardware virtualisation (kvm_intel or kvm_amd):
 * other providers of /dev/kvm, such as kvm_pvm, run only guest kernels
 * built for them, and a Debian kernel hangs there at its first
 * instruction in long mode. */
static gboolean kvm_works(void)
{
        if (!g_file_test("/sys/module/kvm_intel", G_FILE_TEST_IS_DIR) &&
            !g_file_test("/sys/module/kvm_amd", G_FILE_TEST_IS_DIR))
                return FALSE;
        int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
        if (fd < 0)
                return FALSE;
        gboolean ok = ioctl(fd, KVM_GET_API_VERSION, 0) == KVM_API_VERSION;
        if (ok) {
                int vm = ioctl(fd, KVM_CREATE_VM, 0);
                ok = vm >= 0;
                if (vm >= 0)
                        close(vm);
        }
        close(fd);
        return ok;
}

/* Does the VM use KVM?  Decided once: IPCLAB_VM_ACCEL, else whether
 * /dev/kvm can create a VM. */
static gboolean vm_use_kvm(void)
{
        static int use = -1;

        if (use < 0) {
                const char *accel = g_getenv("IPCLAB_VM_ACCEL");
                if (accel != NULL && strcmp(accel, "tcg") == 0)
                        use = 0;
                else if (accel != NULL && strcmp(accel, "kvm") == 0)
                        use = 1;
                else
                        use = kvm_works() ? 1 : 0;
        }
        return use == 1;
}

static gboolean copy_file(const char *from, const char *to, int mode, GError **error)
{
        g_autofree char *bytes = NULL;
        gsize len = 0;
        if (!g_file_get_contents(from, &bytes, &len, error))
                return FALSE;
        return g_file_set_contents_full(to, bytes, (gssize) len, G_FILE_SET_CONTENTS_NONE, mode,
                                        error);
}

/* Fills RUN->share with what the guest's init reads. */
static gboolean fill_share(EnvRun *run, GError **error)
{
        run->share = g_dir_make_tmp("ipclab-vm-XXXXXX", error);
        if (run->share == NULL)
                return FALSE;
        g_autofree char *self = g_build_filename(run->share, "ipclab", NULL);
        g_autofree char *file = g_build_filename(run->share, run->file_base, NULL);
        g_autofree char *args = g_build_filename(run->share, "args", NULL);
        g_autofree char *env = g_build_filename(run->share, "env", NULL);

        if (!copy_file(run->self, self, 0755, error) || !copy_file(run->file, file, 0644, error))
                return FALSE;

        g_autoptr(GString) a = g_string_new(NULL);
        for (guint i = 0; i < run->args->len; i++)
                g_string_append_len(a, run->args->pdata[i],
                                    (gssize) strlen(run->args->pdata[i]) + 1);
        g_autoptr(GString) e = g_string_new(NULL);
        for (guint i = 0; i < run->env->len; i++)
                g_string_append_printf(e, "%s\n", (const char *) run->env->pdata[i]);
        return g_file_set_contents(args, a->str, (gssize) a->len, error) &&
               g_file_set_contents(env, e->str, (gssize) e->len, error);
}

static void add(GPtrArray *a, const char *s)
{
        g_ptr_array_add(a, g_strdup(s));
}

static void addf(GPtrArray *a, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void addf(GPtrArray *a, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        g_ptr_array_add(a, g_strdup_vprintf(fmt, ap));
        va_end(ap);
}

/* QEMU's -option values are comma-separated: a comma in a path is doubled. */
static char *qemu_escape(const char *path)
{
        g_auto(GStrv) parts = g_strsplit(path, ",", -1);
        return g_strjoinv(",,", parts);
}

static GPtrArray *vm_argv(EnvRun *run, GError **error)
{
        g_autofree char *qemu = qemu_path();
        if (qemu == NULL) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s", vm_tools_unavailable());
                return NULL;
        }
        if (!fill_share(run, error))
                return NULL;

        g_autofree char *kernel = g_build_filename(run->image, "vmlinuz", NULL);
        g_autofree char *initrd = g_build_filename(run->image, "initrd.img", NULL);
        g_autofree char *disk_path = g_build_filename(run->image, "root.img", NULL);
        g_autofree char *disk = qemu_escape(disk_path);
        g_autofree char *share = qemu_escape(run->share);
        g_autofree char *out_abs = g_canonicalize_filename(run->stage_out, NULL);
        g_autofree char *out = qemu_escape(out_abs);
        guint cpus = MIN(g_get_num_processors(), 2u);
        GPtrArray *a = g_ptr_array_new_with_free_func(g_free);

        g_ptr_array_add(a, g_steal_pointer(&qemu));
        add(a, "-name");
        add(a, "ipclab");
        add(a, "-nodefaults");
        add(a, "-no-user-config");
        add(a, "-display");
        add(a, "none");
        add(a, "-machine");
        add(a, "q35");
        add(a, "-accel");
        add(a, run->kvm ? "kvm" : "tcg,thread=multi");
        add(a, "-cpu");
        add(a, run->kvm ? "host" : "max");
        add(a, "-smp");
        addf(a, "%u", MAX(cpus, 1u));
        add(a, "-m");
        add(a, VM_MEMORY);
        add(a, "-no-reboot");
        add(a, "-kernel");
        add(a, kernel);
        add(a, "-initrd");
        add(a, initrd);
        add(a, "-append");
        add(a, "root=/dev/vda ro rootfstype=ext4 fsck.mode=skip console=ttyS0 "
               "init=/sbin/ipclab-init panic=-1 loglevel=4");
        add(a, "-chardev");
        add(a, "stdio,id=console,signal=off");
        add(a, "-serial");
        add(a, "chardev:console");
        add(a, "-drive");
        addf(a, "if=none,id=root,file=%s,format=raw,readonly=on", disk);
        add(a, "-device");
        add(a, "virtio-blk-pci,drive=root");
        add(a, "-fsdev");
        addf(a, "local,id=in,path=%s,security_model=none,readonly=on", share);
        add(a, "-device");
        add(a, "virtio-9p-pci,fsdev=in,mount_tag=ipclab-in");
        add(a, "-fsdev");
        addf(a, "local,id=out,path=%s,security_model=none", out);
        add(a, "-device");
        add(a, "virtio-9p-pci,fsdev=out,mount_tag=ipclab-out");
        add(a, "-device");
        add(a, "virtio-rng-pci");
        g_ptr_array_add(a, NULL);
        return a;
}

static void vm_setup(EnvRun *run)
{
        run->kvm = vm_use_kvm();
        g_ptr_array_add(run->env, g_strdup_printf("IPCLAB_ENV_ACCEL=%s", run->kvm ? "kvm" : "tcg"));
}

static const char *vm_no_boot_hint(const EnvRun *run)
{
        return run->kvm ? " (if this KVM cannot run the image's kernel, set IPCLAB_VM_ACCEL=tcg)" : "";
}

static const char *vm_unavailable(void)
{
        return env_image_unavailable(&env_ops_vm);
}

static const char *vm_warning(void)
{
        if (vm_use_kvm())
                return NULL;
        return "no usable KVM here (no /dev/kvm backed by kvm_intel or kvm_amd, or "
               "IPCLAB_VM_ACCEL=tcg): "
               "the VM runs under TCG emulation, and its timings are not comparable "
               "with host or KVM numbers";
}

/* The host's time times the VM's slowdown, plus its boot: as recorded
 * under the accelerator it will use here, else the model's. */
static double vm_cost_s(double host_s, const EstimateCalib *cal, GString *note)
{
        gboolean kvm = vm_use_kvm();
        EstimateEnvCalib c;
        gboolean seen = estimate_calib_env(cal, "vm", &c) && strcmp(c.accel, kvm ? "kvm" : "tcg") == 0;
        double boot = seen ? c.start_s : VM_MODEL_BOOT_S;
        double factor = seen ? c.factor : kvm ? VM_MODEL_KVM : VM_MODEL_TCG;
        g_string_append_printf(note, "; %.0f s VM boot, %.1fx slower in the VM (%s, %s)", boot, factor,
                               kvm ? "KVM" : "emulated, TCG", seen ? "as recorded" : "modelled");
        return host_s * factor + boot;
}

static const EnvBackend vm_backend = {
        .unavailable = vm_tools_unavailable,
        .setup = vm_setup,
        .argv = vm_argv,
        .startup_s = vm_startup_s,
        .grace_s = 0,
        .boot_marker = VM_GUEST_MARKER,
        .no_boot_hint = vm_no_boot_hint,
};

const EnvOps env_ops_vm = {
        .name = "vm",
        .unavailable = vm_unavailable,
        .warning = vm_warning,
        .run = env_image_run,
        .cost_s = vm_cost_s,
        .backend = &vm_backend,
};
