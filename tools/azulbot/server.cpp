// A line protocol around gleb-t/AzulBot's MctsBot, so `azulbot-match` can
// ask it for moves. Built against an AzulBot checkout (its sources stay
// there; see README.md): one request per line on stdin, one answer per
// line on stdout.
//
// Request (whitespace-separated integers, AzulBot's own encoding):
//   millis nextPlayer firstPlayer poolWasTouched
//   bag[6]                       (index 0 = empty colour, always 0)
//   bins[6][6]                   (bins 0-4 the factories, 5 the centre)
//   per player (2): wall[5][5] queue[5][2] floorCount score
// Answer: sourceBin color targetQueue playouts
#include <chrono>
#include <iostream>

#include "Azul.h"
#include "AzulState.h"
#include "MctsBot.h"

namespace {

bool read_state(std::istream& in, long& millis, AzulState& state) {
    long v = 0;
    auto next = [&](long& out) { return static_cast<bool>(in >> out); };
    if (!next(millis)) return false;
    if (!next(v)) return false;
    state.nextPlayer = static_cast<uint8_t>(v);
    if (!next(v)) return false;
    state.firstPlayer = static_cast<uint8_t>(v);
    if (!next(v)) return false;
    state.poolWasTouched = v != 0;
    for (auto& n : state.bag) {
        if (!next(v)) return false;
        n = static_cast<uint8_t>(v);
    }
    for (auto& bin : state.bins)
        for (auto& n : bin) {
            if (!next(v)) return false;
            n = static_cast<uint8_t>(v);
        }
    for (auto& player : state.players) {
        for (auto& row : player.wall)
            for (auto& cell : row) {
                if (!next(v)) return false;
                cell = static_cast<Color>(v);
            }
        for (auto& queue : player.queue)
            for (auto& n : queue) {
                if (!next(v)) return false;
                n = static_cast<uint8_t>(v);
            }
        if (!next(v)) return false;
        player.floorCount = static_cast<uint8_t>(v);
        if (!next(v)) return false;
        player.score = static_cast<uint32_t>(v);
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    // The settings of AzulBot's own interactive bot (azul_bot_cmd.py).
    const int samplingWidth = argc > 1 ? std::atoi(argv[1]) : 10;
    const double explorationWeight = argc > 2 ? std::atof(argv[2]) : 20.0;
    Azul azul;
    long millis = 0;
    AzulState state;
    while (read_state(std::cin, millis, state)) {
        MctsBot bot(azul, state, samplingWidth, explorationWeight);
        const auto start = std::chrono::steady_clock::now();
        const auto budget = std::chrono::milliseconds(millis);
        long playouts = 0;
        do {
            bot.step();
            playouts++;
        } while (std::chrono::steady_clock::now() - start < budget);
        const Move move = bot.get_best_move();
        std::cout << int(move.sourceBin) << ' ' << int(move.color) << ' ' << int(move.targetQueue)
                  << ' ' << playouts << std::endl;
        state = AzulState{};
    }
    return 0;
}
