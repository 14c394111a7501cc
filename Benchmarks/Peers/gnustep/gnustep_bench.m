/*
 * Workloads W1–W5 against GNUstep's NSUndoManager, for side-by-side numbers with UndoKit.
 *
 * GNUstep has no block-based registration, so an action is the classic pair of methods
 * that change an integer and register their inverse with
 * registerUndoWithTarget:selector:object:, the way pre-block Cocoa code was written.
 * groupsByEvent is off and every group is explicit, as in UndoKit's bench.
 *
 * The loops run inside autorelease pools drained every kPoolBatch operations: GNUstep
 * autoreleases objects on the registration and undo paths, and an application's run loop
 * would drain them once per event; never draining would charge the peer for memory no real
 * program keeps.
 */
#import <Foundation/Foundation.h>

#include "../common/peer_common.h"

static const long kPoolBatch = 1024;
static const char *const kImpl = "gnustep";

@interface Counter : NSObject
{
@public
    long value;
    NSUndoManager *manager;  /* not retained: the manager outlives every counter here */
}
- (id) initWithManager: (NSUndoManager *)aManager;
- (void) increment: (id)unused;
- (void) decrement: (id)unused;
@end

@implementation Counter
- (id) initWithManager: (NSUndoManager *)aManager
{
    if ((self = [super init]) != nil) {
        manager = aManager;
    }
    return self;
}

- (void) increment: (id)unused
{
    value++;
    [manager registerUndoWithTarget: self selector: @selector(decrement:) object: nil];
}

- (void) decrement: (id)unused
{
    value--;
    [manager registerUndoWithTarget: self selector: @selector(increment:) object: nil];
}
@end

static NSUndoManager *newManager(void)
{
    NSUndoManager *um = [[NSUndoManager alloc] init];
    [um setGroupsByEvent: NO];
    /* GNUstep's default is unlimited too; set it so the setting is not left to chance. */
    [um setLevelsOfUndo: 0];
    return um;
}

/* Calls body(i) for i in [0, count) with the autorelease pool drained every kPoolBatch. */
#define BATCHED(count, i, body)                                          \
    do {                                                                 \
        NSAutoreleasePool *pool_ = [[NSAutoreleasePool alloc] init];     \
        for (long i = 0; i < (count); i++) {                             \
            body;                                                        \
            if ((i + 1) % kPoolBatch == 0) {                             \
                [pool_ drain];                                           \
                pool_ = [[NSAutoreleasePool alloc] init];                \
            }                                                            \
        }                                                                \
        [pool_ drain];                                                   \
    } while (0)

static void emit3(const char *w, peer_phase *a, peer_phase *b, peer_phase *c)
{
    peer_emit(kImpl, w, a, NULL);
    peer_emit(kImpl, w, b, NULL);
    peer_emit(kImpl, w, c, NULL);
}

static void runW1(peer_options o)
{
    peer_phase reg = {"register", o.n, {0}, 0, -1}, und = {"undo", o.n, {0}, 0, -1}, red = {"redo", o.n, {0}, 0, -1};
    for (int rep = 0; rep < o.repetitions; rep++) {
        NSUndoManager *um = newManager();
        Counter *c = [[Counter alloc] initWithManager: um];
        long rssBefore = peer_rss_kb();
        double t0 = peer_now_ns();
        BATCHED(o.n, i, {
            [um beginUndoGrouping];
            [c increment: nil];
            [um endUndoGrouping];
        });
        double t1 = peer_now_ns();
        if (rep == 0) reg.bytes_per_action = (double)(peer_rss_kb() - rssBefore) * 1024.0 / (double)o.n;
        PEER_CHECK(c->value == o.n, "W1 register: value %ld", c->value);
        BATCHED(o.n, i, [um undo]);
        double t2 = peer_now_ns();
        PEER_CHECK(c->value == 0 && ![um canUndo], "W1 undo: value %ld", c->value);
        BATCHED(o.n, i, [um redo]);
        double t3 = peer_now_ns();
        PEER_CHECK(c->value == o.n && ![um canRedo], "W1 redo: value %ld", c->value);
        peer_record(&reg, (t1 - t0) / o.n);
        peer_record(&und, (t2 - t1) / o.n);
        peer_record(&red, (t3 - t2) / o.n);
        [um release];
        [c release];
    }
    emit3("W1", &reg, &und, &red);
}

static void runW2(peer_options o)
{
    peer_phase reg = {"register", o.n, {0}, 0, -1}, und = {"undo", o.n, {0}, 0, -1}, red = {"redo", o.n, {0}, 0, -1};
    for (int rep = 0; rep < o.repetitions; rep++) {
        NSUndoManager *um = newManager();
        Counter *c = [[Counter alloc] initWithManager: um];
        double t0 = peer_now_ns();
        [um beginUndoGrouping];
        BATCHED(o.n, i, [c increment: nil]);
        [um endUndoGrouping];
        double t1 = peer_now_ns();
        PEER_CHECK(c->value == o.n, "W2 register: value %ld", c->value);
        NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
        [um undo];
        [pool drain];
        double t2 = peer_now_ns();
        PEER_CHECK(c->value == 0 && ![um canUndo], "W2 undo: value %ld", c->value);
        pool = [[NSAutoreleasePool alloc] init];
        [um redo];
        [pool drain];
        double t3 = peer_now_ns();
        PEER_CHECK(c->value == o.n && ![um canRedo], "W2 redo: value %ld", c->value);
        peer_record(&reg, (t1 - t0) / o.n);
        peer_record(&und, (t2 - t1) / o.n);
        peer_record(&red, (t3 - t2) / o.n);
        [um release];
        [c release];
    }
    emit3("W2", &reg, &und, &red);
}

static void runW3(peer_options o)
{
    const long depth = 10, groups = o.n / depth, actions = groups * depth;
    peer_phase reg = {"register", actions, {0}, 0, -1}, und = {"undo", actions, {0}, 0, -1}, red = {"redo", actions, {0}, 0, -1};
    for (int rep = 0; rep < o.repetitions; rep++) {
        NSUndoManager *um = newManager();
        Counter *c = [[Counter alloc] initWithManager: um];
        double t0 = peer_now_ns();
        BATCHED(groups, g, {
            for (long level = 0; level < depth; level++) {
                [um beginUndoGrouping];
                [c increment: nil];
            }
            for (long level = 0; level < depth; level++) [um endUndoGrouping];
        });
        double t1 = peer_now_ns();
        PEER_CHECK(c->value == actions, "W3 register: value %ld", c->value);
        BATCHED(groups, g, [um undo]);
        double t2 = peer_now_ns();
        PEER_CHECK(c->value == 0 && ![um canUndo], "W3 undo: value %ld", c->value);
        BATCHED(groups, g, [um redo]);
        double t3 = peer_now_ns();
        PEER_CHECK(c->value == actions && ![um canRedo], "W3 redo: value %ld", c->value);
        peer_record(&reg, (t1 - t0) / actions);
        peer_record(&und, (t2 - t1) / actions);
        peer_record(&red, (t3 - t2) / actions);
        [um release];
        [c release];
    }
    emit3("W3", &reg, &und, &red);
}

/* W4: levelsOfUndo 100; N/100 cycles of: 100 single-action groups past the limit (each
 * trims the oldest kept group), undo the 100 kept, redo them. 100 untimed groups fill the
 * history to the limit first, so every timed group trims. Each phase is timed per cycle and
 * summed; the value is checked after every phase, the manager's state in the last cycle, as
 * UndoKit's bench does. */
static void runW4(peer_options o)
{
    const long kept = 100, cycles = o.n / kept > 0 ? o.n / kept : 1;
    peer_phase reg = {"register", kept * cycles, {0}, 0, -1}, und = {"undo", kept * cycles, {0}, 0, -1},
               red = {"redo", kept * cycles, {0}, 0, -1};
    for (int rep = 0; rep < o.repetitions; rep++) {
        NSUndoManager *um = newManager();
        [um setLevelsOfUndo: kept];
        Counter *c = [[Counter alloc] initWithManager: um];
        BATCHED(kept, i, {
            [um beginUndoGrouping];
            [c increment: nil];
            [um endUndoGrouping];
        });
        double regNs = 0, undoNs = 0, redoNs = 0;
        for (long cycle = 0; cycle < cycles; cycle++) {
            const int last = cycle == cycles - 1;
            const long base = kept * (cycle + 1);
            double t0 = peer_now_ns();
            BATCHED(kept, i, {
                [um beginUndoGrouping];
                [c increment: nil];
                [um endUndoGrouping];
            });
            double t1 = peer_now_ns();
            PEER_CHECK(c->value == base + kept, "W4 register, cycle %ld: value %ld", cycle, c->value);
            double t2 = peer_now_ns();
            BATCHED(kept, i, [um undo]);
            double t3 = peer_now_ns();
            PEER_CHECK(c->value == base && (!last || ![um canUndo]), "W4 undo, cycle %ld: value %ld, canUndo %d",
                       cycle, c->value, (int)[um canUndo]);
            double t4 = peer_now_ns();
            BATCHED(kept, i, [um redo]);
            double t5 = peer_now_ns();
            PEER_CHECK(c->value == base + kept && (!last || ![um canRedo]), "W4 redo, cycle %ld: value %ld", cycle, c->value);
            regNs += t1 - t0;
            undoNs += t3 - t2;
            redoNs += t5 - t4;
        }
        peer_record(&reg, regNs / (kept * cycles));
        peer_record(&und, undoNs / (kept * cycles));
        peer_record(&red, redoNs / (kept * cycles));
        [um release];
        [c release];
    }
    emit3("W4", &reg, &und, &red);
}

/* Actions registered on target t when N actions go round-robin over `targets` targets. */
static long actionsOf(long t, long n, long targets)
{
    return n / targets + (t < n % targets ? 1 : 0);
}

static void runW5(peer_options o)
{
    const long targets = 1000, undone = o.n / 2;
    const long calls = (o.w5_calls < 0 || o.w5_calls > targets) ? targets : o.w5_calls;
    peer_phase reg = {"register", o.n, {0}, 0, -1}, und = {"undo", undone, {0}, 0, -1};
    /* Per stored action is the cell (the operation a call repeats); the mean per call is a
     * note on it, as in UndoKit's bench. */
    peer_phase perCall = {"remove_call", calls, {0}, 0, -1}, perStored = {"remove_per_stored", 0, {0}, 0, -1};
    for (int rep = 0; rep < o.repetitions; rep++) {
        NSAutoreleasePool *outer = [[NSAutoreleasePool alloc] init];
        NSUndoManager *um = newManager();
        NSMutableArray *cs = [NSMutableArray arrayWithCapacity: targets];
        for (long t = 0; t < targets; t++) {
            Counter *c = [[Counter alloc] initWithManager: um];
            [cs addObject: c];
            [c release];
        }
        Counter **raw = malloc(sizeof(Counter *) * targets);
        for (long t = 0; t < targets; t++) raw[t] = [cs objectAtIndex: t];

        double t0 = peer_now_ns();
        BATCHED(o.n, i, {
            [um beginUndoGrouping];
            [raw[i % targets] increment: nil];
            [um endUndoGrouping];
        });
        double t1 = peer_now_ns();
        BATCHED(undone, i, [um undo]);
        double t2 = peer_now_ns();
        long total = 0;
        for (long t = 0; t < targets; t++) total += raw[t]->value;
        PEER_CHECK(total == o.n - undone, "W5 undo: total %ld", total);

        /* Undo moved each undone action to the redo stack, so every registered action is
         * still stored when removal starts. */
        long stored = o.n, storedSum = 0;
        double removeNs = 0;
        for (long t = 0; t < calls; t++) {
            storedSum += stored;
            double r0 = peer_now_ns();
            [um removeAllActionsWithTarget: raw[t]];
            removeNs += peer_now_ns() - r0;
            stored -= actionsOf(t, o.n, targets);
        }
        if (calls < targets) {
            PEER_CHECK([um canUndo] || [um canRedo], "W5: targets not removed yet lost their actions");
            [um removeAllActions];
        }
        PEER_CHECK(![um canUndo] && ![um canRedo], "W5 remove: actions left after removing every target");
        total = 0;
        for (long t = 0; t < targets; t++) total += raw[t]->value;
        PEER_CHECK(total == o.n - undone, "W5 remove changed values: total %ld", total);

        peer_record(&reg, (t1 - t0) / o.n);
        peer_record(&und, (t2 - t1) / undone);
        peer_record(&perCall, removeNs / calls);
        peer_record(&perStored, removeNs / storedSum);
        perStored.n = storedSum;
        free(raw);
        [um release];
        [outer drain];
    }
    char note[160];
    snprintf(note, sizeof note, "%ld of %ld removal calls measured", calls, targets);
    peer_emit(kImpl, "W5", &reg, NULL);
    peer_emit(kImpl, "W5", &und, NULL);
    perStored.extra_key = "ns_per_call";
    perStored.extra = peer_median(&perCall);
    perStored.extra2_key = "calls_timed";
    perStored.extra2 = (double)calls;
    peer_emit(kImpl, "W5", &perStored, calls < targets ? note : NULL);
}

int main(int argc, char **argv)
{
    NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
    peer_options o = peer_parse(argc, argv);
    if (strcmp(o.workload, "W1") == 0) runW1(o);
    else if (strcmp(o.workload, "W2") == 0) runW2(o);
    else if (strcmp(o.workload, "W3") == 0) runW3(o);
    else if (strcmp(o.workload, "W4") == 0) runW4(o);
    else if (strcmp(o.workload, "W5") == 0) runW5(o);
    else peer_usage(argv[0]);
    [pool drain];
    return 0;
}
