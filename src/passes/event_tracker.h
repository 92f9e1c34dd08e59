#pragma once
// The dependence state of the analysis (Cypress §4.2.1): per tensor of the event program, the
// event of its last write and the events of the reads since. A read waits for the last write; a
// write waits for the last write and every read since (true and anti dependences). Two reads
// never wait on each other.
//
// Loops: the events defined in a loop body are invisible after it. When a loop closes, every
// tensor declared before the loop and touched in its body has the loop's event (`%e[:]` for a
// pfor) as its last write (if the body wrote it) or as one more read.
#include "ir/event.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace kiln::passes {

class EventTracker {
public:
    void declare(const std::string& tensor);
    std::vector<event::EventRef> before_read(const std::string& tensor) const;
    std::vector<event::EventRef> before_write(const std::string& tensor) const;
    void read(const std::string& tensor, const event::EventRef& e);
    void wrote(const std::string& tensor, const event::EventRef& e);

    void open_loop();
    void close_loop(const event::EventRef& loop_event);

private:
    struct State {
        std::vector<event::EventRef> last_write; // empty or one
        std::vector<event::EventRef> reads;
    };
    struct LoopFrame {
        std::map<std::string, State> before;
        std::map<std::string, bool> touched; // tensor -> written
    };
    void touch(const std::string& tensor, bool written);

    std::map<std::string, State> states_;
    std::vector<LoopFrame> loops_;
};

// What the completion of each event implies: the events it waited for, transitively (a loop
// implies every event its body waited for, as every iteration's yield covers its whole body).
// Used to drop a precondition that another precondition of the same operation already implies.
class Implications {
public:
    void record(const event::Op& op);
    std::vector<event::EventRef> reduce(const std::vector<event::EventRef>& refs) const;

private:
    void add_implied(std::set<std::string>& out, const event::EventRef& r) const;
    std::map<std::string, std::set<std::string>> implied_;
};

// Appends `r` unless an equal reference is already there.
void add_unique(std::vector<event::EventRef>& refs, const event::EventRef& r);

} // namespace kiln::passes
