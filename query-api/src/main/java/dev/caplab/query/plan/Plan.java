package dev.caplab.query.plan;

import dev.caplab.query.web.TabularResponse;
import java.util.List;

/** A profile placed on each requested tier, from that tier's own measured fits (never another tier's). */
public record Plan(String profile, double load, double margin, String model, List<TierPlan> tiers,
                   List<String> warnings) implements TabularResponse {

    public Plan {
        tiers = List.copyOf(tiers);
        warnings = List.copyOf(warnings);
    }

    @Override
    public List<? extends Record> rows() {
        return tiers;
    }

    @Override
    public Class<? extends Record> rowType() {
        return TierPlan.class;
    }
}
