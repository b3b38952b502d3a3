package dev.caplab.analysis.capacity;

/**
 * Rooms of video calls: each room has {@code participants}, {@code cameras} of them publishing video.
 * Load = rooms × cameras × (participants − 1) subscriptions (report 000: "подписки = камер × (участников − 1)",
 * confirmed by two production measurements), each camera being received by every other participant.
 */
public record ConferenceProfile(String name, int rooms, int participants, int cameras) implements WorkloadProfile {
    public ConferenceProfile {
        if (rooms < 1 || participants < 1 || cameras < 0) {
            throw new IllegalArgumentException(name + ": need rooms >= 1, participants >= 1, cameras >= 0; got "
                    + rooms + "/" + participants + "/" + cameras);
        }
        if (cameras > participants) {
            throw new IllegalArgumentException(name + ": " + cameras + " cameras but only " + participants
                    + " participants per room");
        }
    }

    /** rooms · cameras · (participants − 1). */
    @Override
    public double load() {
        return (double) rooms * cameras * (participants - 1);
    }
}
