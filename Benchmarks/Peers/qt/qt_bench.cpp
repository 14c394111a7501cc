// Workloads W1–W5 against Qt 5's QUndoStack, for side-by-side numbers with UndoKit.
//
// Mapping of the workloads onto Qt's model:
// - An action is a QUndoCommand whose redo() increments and undo() decrements an int on its
//   target. QUndoStack::push() runs redo() itself, so "change the value and register the
//   inverse" is exactly one push, the idiomatic Qt equivalent.
// - A single-action group is a plain push (Qt's unit of undo). Multi-action groups use
//   beginMacro()/endMacro(), which nest (W3).
// - W4 uses setUndoLimit(100), Qt's counterpart of levelsOfUndo, and repeats its cycle
//   (push 100 past the limit, undo the 100 kept, redo them) N/100 times.
// - W5: QUndoStack has no per-target removal, so only its register and undo phases are
//   reported; the removal phase is absent from Qt's output on purpose.
#include <QUndoStack>
#include <QUndoCommand>
#include <QString>

#include <memory>
#include <vector>

extern "C" {
#include "../common/peer_common.h"
}

namespace {

struct Counter {
    long value = 0;
};

class Step final : public QUndoCommand {
public:
    explicit Step(Counter *target) : target_(target) {}
    void redo() override { ++target_->value; }
    void undo() override { --target_->value; }

private:
    Counter *target_;
};

const char *const kImpl = "qt";

void runW1(const peer_options &o)
{
    peer_phase reg{"register", o.n, {}, 0, -1}, und{"undo", o.n, {}, 0, -1}, red{"redo", o.n, {}, 0, -1};
    for (int rep = 0; rep < o.repetitions; rep++) {
        Counter c;
        auto stack = std::make_unique<QUndoStack>();
        long rssBefore = peer_rss_kb();
        double t0 = peer_now_ns();
        for (long i = 0; i < o.n; i++) stack->push(new Step(&c));
        double t1 = peer_now_ns();
        if (rep == 0) reg.bytes_per_action = (double)(peer_rss_kb() - rssBefore) * 1024.0 / (double)o.n;
        PEER_CHECK(c.value == o.n && stack->count() == o.n, "W1 register: value %ld count %d", c.value, stack->count());
        for (long i = 0; i < o.n; i++) stack->undo();
        double t2 = peer_now_ns();
        PEER_CHECK(c.value == 0 && !stack->canUndo(), "W1 undo: value %ld", c.value);
        for (long i = 0; i < o.n; i++) stack->redo();
        double t3 = peer_now_ns();
        PEER_CHECK(c.value == o.n && !stack->canRedo(), "W1 redo: value %ld", c.value);
        peer_record(&reg, (t1 - t0) / o.n);
        peer_record(&und, (t2 - t1) / o.n);
        peer_record(&red, (t3 - t2) / o.n);
    }
    peer_emit(kImpl, "W1", &reg, nullptr);
    peer_emit(kImpl, "W1", &und, nullptr);
    peer_emit(kImpl, "W1", &red, nullptr);
}

void runW2(const peer_options &o)
{
    peer_phase reg{"register", o.n, {}, 0, -1}, und{"undo", o.n, {}, 0, -1}, red{"redo", o.n, {}, 0, -1};
    for (int rep = 0; rep < o.repetitions; rep++) {
        Counter c;
        auto stack = std::make_unique<QUndoStack>();
        double t0 = peer_now_ns();
        stack->beginMacro(QString());
        for (long i = 0; i < o.n; i++) stack->push(new Step(&c));
        stack->endMacro();
        double t1 = peer_now_ns();
        PEER_CHECK(c.value == o.n && stack->count() == 1, "W2 register: value %ld count %d", c.value, stack->count());
        stack->undo();
        double t2 = peer_now_ns();
        PEER_CHECK(c.value == 0 && !stack->canUndo(), "W2 undo: value %ld", c.value);
        stack->redo();
        double t3 = peer_now_ns();
        PEER_CHECK(c.value == o.n && !stack->canRedo(), "W2 redo: value %ld", c.value);
        peer_record(&reg, (t1 - t0) / o.n);
        peer_record(&und, (t2 - t1) / o.n);
        peer_record(&red, (t3 - t2) / o.n);
    }
    peer_emit(kImpl, "W2", &reg, nullptr);
    peer_emit(kImpl, "W2", &und, nullptr);
    peer_emit(kImpl, "W2", &red, nullptr);
}

void runW3(const peer_options &o)
{
    const long depth = 10, groups = o.n / depth, actions = groups * depth;
    peer_phase reg{"register", actions, {}, 0, -1}, und{"undo", actions, {}, 0, -1}, red{"redo", actions, {}, 0, -1};
    for (int rep = 0; rep < o.repetitions; rep++) {
        Counter c;
        auto stack = std::make_unique<QUndoStack>();
        double t0 = peer_now_ns();
        for (long g = 0; g < groups; g++) {
            for (long level = 0; level < depth; level++) {
                stack->beginMacro(QString());
                stack->push(new Step(&c));
            }
            for (long level = 0; level < depth; level++) stack->endMacro();
        }
        double t1 = peer_now_ns();
        PEER_CHECK(c.value == actions && stack->count() == groups, "W3 register: value %ld count %d", c.value, stack->count());
        for (long g = 0; g < groups; g++) stack->undo();
        double t2 = peer_now_ns();
        PEER_CHECK(c.value == 0 && !stack->canUndo(), "W3 undo: value %ld", c.value);
        for (long g = 0; g < groups; g++) stack->redo();
        double t3 = peer_now_ns();
        PEER_CHECK(c.value == actions && !stack->canRedo(), "W3 redo: value %ld", c.value);
        peer_record(&reg, (t1 - t0) / actions);
        peer_record(&und, (t2 - t1) / actions);
        peer_record(&red, (t3 - t2) / actions);
    }
    peer_emit(kImpl, "W3", &reg, nullptr);
    peer_emit(kImpl, "W3", &und, nullptr);
    peer_emit(kImpl, "W3", &red, nullptr);
}

// W4: setUndoLimit(100); N/100 cycles of: push 100 commands past the limit (each deletes the
// oldest kept), undo the 100 kept, redo them. 100 untimed pushes fill the stack to the limit
// first, so every timed push trims. Each phase is timed per cycle and summed; the value is
// checked after every phase, the stack's state in the last cycle, as UndoKit's bench does.
void runW4(const peer_options &o)
{
    const long kept = 100, cycles = o.n / kept > 0 ? o.n / kept : 1;
    peer_phase reg{"register", kept * cycles, {}, 0, -1}, und{"undo", kept * cycles, {}, 0, -1},
        red{"redo", kept * cycles, {}, 0, -1};
    for (int rep = 0; rep < o.repetitions; rep++) {
        Counter c;
        auto stack = std::make_unique<QUndoStack>();
        stack->setUndoLimit(kept);
        for (long i = 0; i < kept; i++) stack->push(new Step(&c));
        double regNs = 0, undoNs = 0, redoNs = 0;
        for (long cycle = 0; cycle < cycles; cycle++) {
            const bool last = cycle == cycles - 1;
            const long base = kept * (cycle + 1);
            double t0 = peer_now_ns();
            for (long i = 0; i < kept; i++) stack->push(new Step(&c));
            double t1 = peer_now_ns();
            PEER_CHECK(c.value == base + kept && (!last || stack->count() == kept),
                       "W4 register, cycle %ld: value %ld count %d", cycle, c.value, stack->count());
            double t2 = peer_now_ns();
            for (long i = 0; i < kept; i++) stack->undo();
            double t3 = peer_now_ns();
            PEER_CHECK(c.value == base && (!last || !stack->canUndo()), "W4 undo, cycle %ld: value %ld", cycle, c.value);
            double t4 = peer_now_ns();
            for (long i = 0; i < kept; i++) stack->redo();
            double t5 = peer_now_ns();
            PEER_CHECK(c.value == base + kept && (!last || !stack->canRedo()), "W4 redo, cycle %ld: value %ld", cycle, c.value);
            regNs += t1 - t0;
            undoNs += t3 - t2;
            redoNs += t5 - t4;
        }
        peer_record(&reg, regNs / (kept * cycles));
        peer_record(&und, undoNs / (kept * cycles));
        peer_record(&red, redoNs / (kept * cycles));
    }
    peer_emit(kImpl, "W4", &reg, nullptr);
    peer_emit(kImpl, "W4", &und, nullptr);
    peer_emit(kImpl, "W4", &red, nullptr);
}

void runW5(const peer_options &o)
{
    const long targets = 1000, undone = o.n / 2;
    peer_phase reg{"register", o.n, {}, 0, -1}, und{"undo", undone, {}, 0, -1};
    for (int rep = 0; rep < o.repetitions; rep++) {
        std::vector<Counter> cs(targets);
        auto stack = std::make_unique<QUndoStack>();
        double t0 = peer_now_ns();
        for (long i = 0; i < o.n; i++) stack->push(new Step(&cs[i % targets]));
        double t1 = peer_now_ns();
        for (long i = 0; i < undone; i++) stack->undo();
        double t2 = peer_now_ns();
        // The last `undone` pushes went round-robin, so each target lost the same share
        // (up to one, when N is not a multiple of the target count).
        long total = 0;
        for (const Counter &c : cs) total += c.value;
        PEER_CHECK(total == o.n - undone && stack->index() == o.n - undone, "W5 undo: total %ld", total);
        peer_record(&reg, (t1 - t0) / o.n);
        peer_record(&und, (t2 - t1) / undone);
    }
    peer_emit(kImpl, "W5", &reg, nullptr);
    peer_emit(kImpl, "W5", &und, nullptr);
}

} // namespace

int main(int argc, char **argv)
{
    peer_options o = peer_parse(argc, argv);
    const std::string w = o.workload;
    if (w == "W1") runW1(o);
    else if (w == "W2") runW2(o);
    else if (w == "W3") runW3(o);
    else if (w == "W4") runW4(o);
    else if (w == "W5") runW5(o);
    else peer_usage(argv[0]);
    return 0;
}
