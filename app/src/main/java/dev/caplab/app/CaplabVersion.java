package dev.caplab.app;

import picocli.CommandLine.IVersionProvider;

/** Reports the version from the jar manifest (or "dev" when run from classes). */
public final class CaplabVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = CaplabVersion.class.getPackage().getImplementationVersion();
        return new String[] {"caplab " + (version == null ? "dev" : version)};
    }
}
