import DemoCatalog
import StorybookCLI

StorybookCLI.main(catalog: try DemoCatalog.make())
