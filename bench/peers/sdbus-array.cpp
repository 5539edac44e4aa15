/* sdbus-array.cpp: seed 004's workload, written against sdbus-c++ itself.
 *
 * A method taking `ay` and replying empty, called COUNT times with a
 * std::vector<uint8_t> of SIZE elements (20 KiB by default), through a bus
 * given by its address (ipclab's private bus, never the session bus).
 * sdbus-c++ 1.2.0 (Debian 12) serialises the vector one element at a time.
 *
 *   sdbus-array --address=A --mode=threads [--read] [--count=N] ...
 *           one process, one connection: the server's object and the
 *           connection's event loop on one thread, the caller on another
 *           (the seed's shape)
 *   sdbus-array --address=A --mode=server [--read]
 *           a second process: owns the name, serves until killed; prints
 *           "ready" once it does
 *   sdbus-array --address=A --mode=client [--count=N] ...
 *           the caller, in its own process and on its own connection
 *
 * --read makes the server take the argument into a std::vector<uint8_t>
 * (as sdbus-c++ does: element by element); without it the server ignores
 * the argument, as the seed's did.  sdbus-c++ marks a connection made
 * from an address trusted (as sd_bus_open_user() does), so sd-bus never
 * asks the bus for a caller's credentials before dispatching a call.
 *
 * The client prints one line of key=value pairs: wall and CPU time
 * between two clock reads around the call loop only (after WARMUP untimed
 * calls), the process CPU (in threads mode that holds the server and the
 * event loop too), the calling thread's CPU, and, with --bus-pid, the bus daemon's CPU over the same
 * window read two ways: its process CPU clock (every thread) and
 * /proc/PID/schedstat (its main thread; what ipclab's runner reads).
 */
#include <sdbus-c++/sdbus-c++.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace {

const char *const kName = "org.ipclab.Peer";
const char *const kPath = "/org/ipclab/Peer";
const char *const kIface = "org.ipclab.Peer";
const char *const kMethod = "Bytes";

struct Options {
        std::string address;
        std::string mode;
        bool read = false;
        unsigned long count = 1000;
        unsigned long warmup = 20;
        unsigned long size = 20 * 1024;
        long bus_pid = 0;
};

uint64_t clock_ns(clockid_t id)
{
        struct timespec ts;

        if (clock_gettime(id, &ts) != 0)
                return 0;
        return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* The first field of /proc/PID/schedstat: the main thread's time on CPU. */
uint64_t schedstat_ns(long pid)
{
        char path[64], buf[128];

        snprintf(path, sizeof path, "/proc/%ld/schedstat", pid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return 0;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0)
                return 0;
        buf[n] = '\0';
        return strtoull(buf, nullptr, 10);
}

/* The bus daemon's CPU, both ways, at one moment. */
struct BusCpu {
        clockid_t clock{};
        bool have_clock = false;
        long pid = 0;

        explicit BusCpu(long p) : pid(p)
        {
                have_clock = p > 0 && clock_getcpuclockid((pid_t) p, &clock) == 0;
        }
        uint64_t process() const { return have_clock ? clock_ns(clock) : 0; }
        uint64_t schedstat() const { return pid > 0 ? schedstat_ns(pid) : 0; }
};

bool parse_ulong(const char *text, unsigned long *out)
{
        char *end = nullptr;

        errno = 0;
        unsigned long v = strtoul(text, &end, 10);
        if (errno || end == text || *end || text[0] == '-')
                return false;
        *out = v;
        return true;
}

int usage(const char *why)
{
        fprintf(stderr, "sdbus-array: %s\n"
                "usage: sdbus-array --address=ADDR --mode=threads|server|client [--read]\n"
                "                   [--count=N] [--warmup=N] [--size=BYTES] [--bus-pid=PID]\n", why);
        return 2;
}

int parse(int argc, char **argv, Options *o)
{
        for (int i = 1; i < argc; i++) {
                const char *a = argv[i];
                const char *eq = strchr(a, '=');
                std::string key = eq ? std::string(a, (size_t) (eq - a)) : std::string(a);
                const char *val = eq ? eq + 1 : nullptr;
                unsigned long u = 0;

                if (key == "--read" && !val) {
                        o->read = true;
                } else if (key == "--address" && val) {
                        o->address = val;
                } else if (key == "--mode" && val) {
                        o->mode = val;
                } else if ((key == "--count" || key == "--warmup" || key == "--size" ||
                            key == "--bus-pid") && val && parse_ulong(val, &u)) {
                        if (key == "--count")
                                o->count = u;
                        else if (key == "--warmup")
                                o->warmup = u;
                        else if (key == "--size")
                                o->size = u;
                        else
                                o->bus_pid = (long) u;
                } else {
                        return usage((std::string("bad argument: ") + a).c_str());
                }
        }
        if (o->address.empty())
                return usage("--address is required");
        if (o->mode != "threads" && o->mode != "server" && o->mode != "client")
                return usage("--mode must be threads, server or client");
        if (o->count == 0)
                return usage("--count must be at least 1");
        return 0;
}

/* The server's object: replies empty, after reading the vector or not. */
std::unique_ptr<sdbus::IObject> serve(sdbus::IConnection &conn, const Options &o)
{
        auto object = sdbus::createObject(conn, kPath);
        bool read = o.read;

        object->registerMethod(kIface, kMethod, "ay", "", [read](sdbus::MethodCall call) {
                if (read) {
                        std::vector<uint8_t> got;
                        call >> got;
                }
                call.createReply().send();
        });
        object->finishRegistration();
        return object;
}

/* Returns once CONN's event loop thread is processing: sdbus-c++ sends a
 * blocking call through that thread only once it knows the thread's id,
 * which the thread records when it starts; a call before that goes through
 * sd-bus on the caller's thread, beside the loop (and fails with ELOOP).
 * An asynchronous call's reply handler runs on the loop thread. */
void wait_for_loop(sdbus::IProxy &proxy)
{
        std::promise<void> up;
        auto running = up.get_future();
        auto m = proxy.createMethodCall(kIface, kMethod);

        m << std::vector<uint8_t>();
        proxy.callMethod(m, [&up](sdbus::MethodReply &, const sdbus::Error *) { up.set_value(); });
        running.wait();
}

/* Calls the method WARMUP + COUNT times through CONN and prints the line. */
void call_loop(sdbus::IConnection &conn, const Options &o)
{
        auto proxy = sdbus::createProxy(conn, kName, kPath);
        proxy->finishRegistration();
        std::vector<uint8_t> items(o.size);
        BusCpu bus(o.bus_pid);

        if (o.mode == "threads")
                wait_for_loop(*proxy);

        for (unsigned long i = 0; i < o.warmup; i++) {
                auto m = proxy->createMethodCall(kIface, kMethod);
                m << items;
                proxy->callMethod(m);
        }

        uint64_t bus_clock0 = bus.process(), bus_sched0 = bus.schedstat();
        uint64_t cpu0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
        uint64_t thread0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
        uint64_t wall0 = clock_ns(CLOCK_MONOTONIC);
        for (unsigned long i = 0; i < o.count; i++) {
                auto m = proxy->createMethodCall(kIface, kMethod);
                m << items;
                proxy->callMethod(m);
        }
        uint64_t wall1 = clock_ns(CLOCK_MONOTONIC);
        uint64_t thread1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
        uint64_t cpu1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
        uint64_t bus_clock1 = bus.process(), bus_sched1 = bus.schedstat();

        printf("mode=%s read=%d calls=%lu size_B=%lu wall_ns=%" PRIu64 " cpu_ns=%" PRIu64
               " thread_cpu_ns=%" PRIu64 " bus_cpu_ns=%" PRIu64 " bus_schedstat_ns=%" PRIu64 "\n",
               o.mode.c_str(), o.read ? 1 : 0, o.count, o.size, wall1 - wall0, cpu1 - cpu0,
               thread1 - thread0, bus_clock1 - bus_clock0, bus_sched1 - bus_sched0);
        fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
        Options o;

        if (int r = parse(argc, argv, &o))
                return r;
        try {
                auto conn = sdbus::createSessionBusConnectionWithAddress(o.address);
                if (o.mode == "server") {
                        conn->requestName(kName);
                        auto object = serve(*conn, o);
                        printf("ready\n");
                        fflush(stdout);
                        conn->enterEventLoop();
                } else if (o.mode == "client") {
                        call_loop(*conn, o);
                } else {
                        conn->requestName(kName);
                        auto object = serve(*conn, o);
                        conn->enterEventLoopAsync();
                        call_loop(*conn, o);
                        conn->leaveEventLoop();
                }
        } catch (const sdbus::Error &e) {
                fprintf(stderr, "sdbus-array: %s: %s\n", e.getName().c_str(), e.getMessage().c_str());
                return 1;
        }
        return 0;
}
