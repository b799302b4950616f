import DemoCatalog
import StorybookServer

StorybookCLI.main(catalog: try DemoCatalog.make())
